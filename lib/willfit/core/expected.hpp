// Expected<T>: a value or an Error, for failures that are part of normal use
// (a bad size string, an unknown device, a malformed file). Must not throw.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace willfit {

struct Error {
  std::string message;  // one line, no "willfit: error:" prefix; the CLI adds it
};

template <class T>
class Expected {
 public:
  Expected(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Expected(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<T>(state_); }
  const T& value() const& { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  T* operator->() { return &std::get<T>(state_); }
  const T* operator->() const { return &std::get<T>(state_); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  [[nodiscard]] const Error& error() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

inline Error make_error(std::string message) {
  return Error{std::move(message)};
}

}  // namespace willfit
