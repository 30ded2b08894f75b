// Test helpers for the speculative-decoding drafts' tests
// (test_arch_drafts.cpp, test_arch_dflash.cpp): the reader's refusal of a
// GGUF header, and whether the Assumptions say something. For tests only.
#pragma once
#include <string>

#include <gtest/gtest.h>

#include "unit/model_file_writers.hpp"
#include "willfit/models/gguf.hpp"
#include "willfit/models/model.hpp"

namespace willfit::test {

// The reader's refusal of `w`'s header ("" when it reads it).
inline std::string gguf_refusal(const GgufWriter& w) {
  const std::string header = w.header();
  auto r = read_gguf(header, (header.size() + 31) / 32 * 32 + w.data_size());
  EXPECT_TRUE(r.ok() && r->file.has_value());
  if (!r.ok() || !r->file.has_value()) {
    return "";
  }
  const auto m = model_from_gguf(*r->file, "draft.gguf");
  return m.ok() ? "" : m.error().message;
}

// Whether one of `m`'s notes (the Assumptions) holds both phrases.
inline bool notes_say(const Model& m, const std::string& a, const std::string& b) {
  for (const std::string& n : m.notes) {
    if (n.find(a) != std::string::npos && n.find(b) != std::string::npos) {
      return true;
    }
  }
  return false;
}

}  // namespace willfit::test
