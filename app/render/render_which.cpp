#include "render/render_which.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "render/render_rent.hpp"
#include "render/render_runtime.hpp"
#include "render/render_speed.hpp"

namespace willfit::app {

std::string render_which_text(const WhichView& v) {
  const InferenceQuery& q = v.query;
  // Each row is sized at its own resolved context (Ollama's default depends
  // on the GPU memory when no --context is given): one figure in the title
  // when they agree, a CONTEXT column when they differ.
  const bool varied = std::any_of(v.rows.begin(), v.rows.end(), [&](const WhichRow& r) {
    return r.context != v.rows.front().context;
  });
  const std::string context =
      v.rows.empty() ? std::to_string(q.context)
      : varied       ? std::string("by device (Ollama's default for its memory: CONTEXT)")
                     : std::to_string(v.rows.front().context);
  std::string s = fmt::format("Devices that fit {} at {}, context {}, batch {}: {} found",
                              q.model.name, q.precision.name, context, q.batch, v.found);
  if (v.rows.size() < v.found) {
    s += fmt::format(" (first {} shown; --limit 0 for all)", v.rows.size());
  }
  s += "\n";
  if (v.rows.empty()) {
    s += "  none: not even 8 of the largest GPU hold it whole";
    s +=
        v.options.max_price_usd || !v.options.vendor.empty() ? " within the filters given\n" : "\n";
    return s;
  }
  std::size_t width = 6;
  for (const auto& r : v.rows) {
    width = std::max(width, r.devices.text.size());
  }
  // A tight row (headroom within the estimate's error) carries a '*' after
  // its need, explained under the table, as the grid's 'fits*' is.
  const auto needs = [&](const WhichRow& r) {
    return format_memory(r.required, v.query.units) + (r.tight ? "*" : "");
  };
  const bool any_tight =
      std::any_of(v.rows.begin(), v.rows.end(), [](const WhichRow& r) { return r.tight; });
  const std::string tight_note =
      any_tight
          ? "*: tight: it fits only within this estimate's own error (+/-" +
                fmt::format("{:g}", std::max_element(v.rows.begin(), v.rows.end(),
                                                     [](const WhichRow& a, const WhichRow& b) {
                                                       return a.error_band_pct < b.error_band_pct;
                                                     })
                                        ->error_band_pct) +
                "% at most); it may go\n   either way; rows without a '*' have room for it.\n"
          : "";
  // An embedding model generates nothing: its speed is the tokens it reads.
  const bool generates = v.rows.front().generates;
  const std::string speed_head = generates ? "DECODE" : "READS";
  const auto decode = [](const WhichRow& r) {
    const std::optional<double>& t = r.generates ? r.decode_tokens_per_s : r.read_tokens_per_s;
    if (!t) {
      return std::string("-");
    }
    return *t >= 10000 ? fmt::format("{:.0f} t/s", *t) : fmt::format("{:.1f} t/s", *t);
  };
  const auto context_cell = [&](const WhichRow& r) {
    return varied ? fmt::format("  {:>7}", r.context) : std::string();
  };
  const std::string context_head = varied ? fmt::format("  {:>7}", "CONTEXT") : std::string();
  const std::string speed_note =
      generates
          ? "Decode: one sequence, tokens per second, estimated (see 'willfit MODEL -d DEVICE').\n"
          : "Reads: tokens per second an embedding model reads, one input of the context at a\n"
            "  time; it generates none (see 'willfit MODEL -d DEVICE').\n";
  const std::string context_note =
      varied ? "Context: the tokens each row is sized at: with no --context, Ollama's default for\n"
               "  that GPU memory, at most the model's trained length; give --context to fix it.\n"
             : "";
  if (v.options.rent != nullptr) {
    std::size_t runtime_width = 7;
    for (const auto& r : v.rows) {
      runtime_width = std::max(runtime_width, runtime_label(r.runtime).size());
    }
    s += fmt::format("  {:<{}}  {:>10}  {:>10}  {:>9}  {:>9}  {:>10}{}  {:<{}}  {}\n", "DEVICE",
                     width, "MEMORY", "NEEDS", "RENT/H", "$/M TOK", speed_head, context_head,
                     "RUNTIME", runtime_width, "OFFER");
    for (const auto& r : v.rows) {
      const RentQuote& quote = *r.rent;
      std::string offer = quote.offer.provider;
      offer += rent_instances(quote);
      s += fmt::format("  {:<{}}  {:>10}  {:>10}  {:>9}  {:>9}  {:>10}{}  {:<{}}  {} ({})\n",
                       r.devices.text, width, format_memory(r.devices.capacity(), v.query.units),
                       needs(r), fmt::format("${:.2f}", quote.usd_per_hour),
                       r.rent_usd_per_million_tokens
                           ? fmt::format("${:.2f}", *r.rent_usd_per_million_tokens)
                           : "-",
                       decode(r), context_cell(r), runtime_label(r.runtime), runtime_width, offer,
                       quote.offer.date);
    }
    s += "\n" + tight_note;
    s += fmt::format(
        "Rent: on-demand USD per hour for the whole set, the cheapest offer in the rent table\n"
        "  ({}); each offer is dated and goes stale.\n"
        "$/M TOK: USD per million {} tokens, rent / ({} x 3600) x 1e6, one sequence\n"
        "  at a time; serving several at once costs less per token.\n",
        v.rent_origin, generates ? "generated" : "read", generates ? "decode" : "reads");
    s += speed_note + context_note;
    return s;
  }
  s += fmt::format("  {:<{}}  {:>10}  {:>10}  {:>8}  {:>10}{}  {}\n", "DEVICE", width, "MEMORY",
                   "NEEDS", "PRICE", speed_head, context_head, "RUNTIME");
  for (const auto& r : v.rows) {
    s += fmt::format("  {:<{}}  {:>10}  {:>10}  {:>8}  {:>10}{}  {}\n", r.devices.text, width,
                     format_memory(r.devices.capacity(), v.query.units), needs(r),
                     r.price_usd ? fmt::format("${:.0f}", *r.price_usd) : "-", decode(r),
                     context_cell(r), runtime_label(r.runtime));
  }
  s += "\n" + tight_note;
  s += fmt::format(
      "Prices: list or launch prices in USD from the device data of {}; they go stale.\n",
      v.data_version.empty() ? "unknown date" : v.data_version);
  s += speed_note + context_note;
  return s;
}

std::string render_which_json(const WhichView& v) {
  using Json = nlohmann::ordered_json;
  const InferenceQuery& q = v.query;
  Json j;
  j["schema_version"] = 1;
  j["willfit_version"] = WILLFIT_VERSION;
  Json query;
  query["model"] = q.model.id;
  query["precision"] = q.precision.id;
  query["context_tokens"] = q.context;
  query["batch"] = q.batch;
  query["kv_type"] = q.kv_type.id;
  query["max_price_usd"] = v.options.max_price_usd ? Json(*v.options.max_price_usd) : Json(nullptr);
  query["vendor"] = v.options.vendor.empty() ? Json(nullptr) : Json(v.options.vendor);
  query["rent"] = v.options.rent != nullptr;
  j["query"] = query;
  j["data_version"] = v.data_version;
  j["rent_data_version"] =
      v.options.rent != nullptr ? Json(v.options.rent->data_version()) : Json(nullptr);
  j["found"] = v.found;
  Json rows = Json::array();
  for (const auto& r : v.rows) {
    Json row;
    row["device"] = r.devices.devices.front().id;
    row["name"] = r.devices.text;
    row["count"] = r.count;
    row["capacity_bytes"] = r.devices.capacity();
    row["total_bytes"] = r.required;
    row["tight"] = r.tight;
    row["band_bytes"] = r.band;
    row["price_usd"] = r.price_usd ? Json(*r.price_usd) : Json(nullptr);
    row["decode_tokens_per_s"] =
        r.decode_tokens_per_s ? Json(rounded_speed(*r.decode_tokens_per_s)) : Json(nullptr);
    // an embedding model: no decode, the tokens it reads a second instead
    row["generates"] = r.generates;
    row["read_tokens_per_s"] =
        r.read_tokens_per_s ? Json(rounded_speed(*r.read_tokens_per_s)) : Json(nullptr);
    row["context_tokens"] = r.context;
    row["runtime"] = std::string(to_string(r.runtime));
    if (r.rent) {
      Json rent;
      rent["usd_per_hour"] = r.rent->usd_per_hour;
      rent["usd_per_million_tokens"] =
          r.rent_usd_per_million_tokens ? Json(*r.rent_usd_per_million_tokens) : Json(nullptr);
      rent["instances"] = r.rent->instances;
      rent["gpus_per_instance"] = r.rent->offer.gpus;
      rent["provider"] = r.rent->offer.provider;
      rent["date"] = r.rent->offer.date;
      rent["source"] = r.rent->offer.source;
      row["rent"] = rent;
    } else {
      row["rent"] = nullptr;
    }
    rows.push_back(row);
  }
  j["devices"] = rows;
  return j.dump(2) + "\n";
}

}  // namespace willfit::app
