// The model catalogue: entries parsed from models.json bytes (validated, one
// error line naming the origin and the entry), merged with user entries, and
// looked up by the names people type. Pure: the app reads the bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "willfit/core/expected.hpp"
#include "willfit/core/text.hpp"
#include "willfit/models/model.hpp"

namespace willfit {

struct CatalogueEntry {
  Model model;  // source == FactSource::Catalogue
  std::vector<std::string> aliases;
  std::string modality;  // "text", "vision-language", "encoder"
  std::string source;    // the entry's citation
  std::string origin;    // which file it came from: "embedded" or a path
  // The precision the model is published in ("bf16", "fp8", "mxfp4"): a
  // named model's default precision; "" when the entry does not say (then
  // fp16). Its source: the config.json key or model card it was read from.
  std::string published_precision;
  std::string published_precision_source;
  // The quantisation of the Ollama library's package that the entry's tag
  // pulls, when it is not Q4_K_M (qwen3.5:0.8b and :2b are Q8_0); "" when
  // the entry does not say. Its source: the library's tags page.
  std::string ollama_precision;
};

// A lookup result: the entry, and the precision the name implied
// ("qwen2.5:7b-instruct-q4_K_M" -> "q4_k_m"), or "".
struct CatalogueMatch {
  const CatalogueEntry* entry = nullptr;
  std::string precision_hint;
  bool ollama_tag = false;  // the name was an Ollama tag: "name:tag" without an organisation
};

// The model a catalogue match stands for, with its default precision and
// why: the tag's quantisation ("qwen2.5:7b-instruct-q4_K_M"); for an Ollama
// tag without one, what `ollama pull` fetches (Q4_K_M, or the published
// precision when that is itself a llama.cpp type, as gpt-oss's MXFP4); else
// the precision the model is published in.
Model model_from_match(const CatalogueMatch& match);

// The Ollama tag that `ollama pull` fetches `m` at precision `precision_id`
// ("q3_k_m" -> "llama3.1:8b-instruct-q3_K_M") when the catalogue lists that
// type among the library's tags for the model (Model::ollama_tag_pattern);
// nullopt when it does not, or lists none.
std::optional<std::string> ollama_tag_for(const Model& m, std::string_view precision_id);

// The note an answer carries when `m` runs under Ollama at a type its
// library publishes no tag of (qwen3:8b at Q5_K_M: its page lists q4_K_M,
// q8_0 and fp16), naming the tags there are; empty when the type is listed
// or the catalogue records no list. The tag form (qwen3:8b-q5_K_M) and
// --precision both say it.
std::string ollama_unpublished_note(const Model& m, std::string_view precision_id,
                                    std::string_view precision_name);

class ModelDb {
 public:
  // Parses a models.json document: {"models": [...]} (the schema in
  // data/README.md) or a bare array of entries. `origin` labels errors and
  // entries ("embedded", a path). Required per entry: id, params, layers,
  // hidden_size, heads, vocab_size; everything else has a documented default.
  static Expected<ModelDb> parse(std::string_view json, std::string_view origin);

  // Adds `other`'s entries; one with an id already present replaces it.
  void merge(ModelDb other);

  [[nodiscard]] const std::vector<CatalogueEntry>& entries() const { return entries_; }
  [[nodiscard]] const std::string& data_version() const { return data_version_; }

  // Finds a model by id, name or alias, loosely: any case; '-', '_', '.',
  // ':' and spaces alike; an organisation prefix ("meta-llama/"); suffix
  // words (instruct, chat, hf, it, base, pt, gguf); an Ollama tag's
  // quantisation ("llama3.1:8b-instruct-q4_K_M"). Unknown names get the
  // three closest names in the error.
  [[nodiscard]] Expected<CatalogueMatch> find(std::string_view name) const;

  // Entries whose id, name, family or aliases contain `query` (loosely);
  // all entries for an empty query.
  [[nodiscard]] std::vector<const CatalogueEntry*> search(std::string_view query) const;

  // The closest ids and aliases to `name`, at most `limit`.
  [[nodiscard]] std::vector<std::string> suggest(std::string_view name,
                                                 std::size_t limit = 3) const;

 private:
  void reindex();
  std::vector<CatalogueEntry> entries_;
  std::string data_version_;
  std::unordered_map<std::string, std::size_t> exact_;  // lowercase name -> entry
  std::unordered_map<std::string, std::size_t> loose_;  // model_name_key -> entry
  Candidates suggestion_names_;                         // ids and short aliases, in order
};

// The loose key two spellings of one name share: lowercase, organisation
// prefix dropped, split into letter and digit runs at separators and at
// letter/digit boundaries, suffix words dropped, joined with '-'.
// "meta-llama/Llama-3.1-8B-Instruct" and "llama3.1:8b" -> "llama-3-1-8-b".
std::string model_name_key(std::string_view name);

// Splits a trailing quantisation off a name: "qwen2.5:7b-instruct-q4_K_M" ->
// {"qwen2.5:7b-instruct", "q4_k_m"}. `precision` is the canonical id, or ""
// when the name carries none.
struct NameAndPrecision {
  std::string name;
  std::string precision;
};
NameAndPrecision split_precision_suffix(std::string_view name);

}  // namespace willfit
