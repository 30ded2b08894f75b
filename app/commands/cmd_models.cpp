// `willfit models [QUERY] [--json] [--models FILE]`: list the catalogue.
#include <ostream>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command.hpp"
#include "help.hpp"
#include "options/units_option.hpp"
#include "render/render_models.hpp"
#include "sources/model_source.hpp"
#include "willfit/core/text.hpp"

namespace willfit::app {

int run_models(const std::vector<std::string>& args, Context& ctx) {
  CLI::App app{
      "List the models willfit knows by name (the catalogue, plus your additions in "
      "$XDG_CONFIG_HOME/willfit/models.json)",
      "willfit models"};
  app.footer(
      std::string(
          "Examples:\n  willfit models\n  willfit models qwen3\n  willfit models llama --json\n") +
      kListingHelpTail);
  std::string query;
  std::string models_file;
  std::string units_text;
  bool json = false;
  app.add_option("QUERY", query,
                 "Show only models whose name contains this (e.g. qwen3, llama3.1)");
  app.add_flag("--json", json, "Print one JSON document");
  app.add_option("--models", models_file, "Model catalogue to use instead of the bundled one");
  add_units_option(app, units_text);  // accepted everywhere; this table shows no memory figures
  if (const int code = parse_cli(app, args, ctx); code >= 0) {
    return code;
  }
  if (const auto units = units_from_option(units_text); !units) {
    return fail(ctx, units.error().message);
  }
  auto db = load_model_db(ctx.env, models_file);
  if (!db) {
    return fail(ctx, db.error().message);
  }
  const auto hits = (*db)->search(query);
  if (hits.empty() && !query.empty()) {
    const std::string hint = did_you_mean((*db)->suggest(query));
    return fail(ctx, "no model matches '" + query + "'" + (hint.empty() ? "" : ": " + hint));
  }
  ctx.out << (json ? render_models_json(hits, (*db)->data_version())
                   : render_models_text(hits, (*db)->data_version()));
  return kExitFits;
}

}  // namespace willfit::app
