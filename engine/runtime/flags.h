// The engine's named settings (TF.js "environment flags"): the engine's own (prod, debug,
// threads) and the ones each backend adds. Every flag is listed with its value and can be set by
// name from a string, the way `tfjsi env` and the GUI show and change them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tfjsi::runtime {

using FlagValue = std::variant<bool, std::int64_t, double, std::string>;

struct Flag {
  std::string name;
  FlagValue value;
  std::string help;
  bool read_only = false;  // detected facts (gl.float32_capable): shown, not settable by users
};

// "true"/"false", "4", "0.5", "text".
std::string flag_value_to_string(const FlagValue& value);

class Flags {
 public:
  // Adds a flag; defining a name twice keeps the first definition (a backend registered again).
  void define(std::string name, FlagValue initial, std::string help, bool read_only = false);
  bool has(std::string_view name) const;

  // Sets a flag from text, parsed as the flag's type ("true"/"false"/"1"/"0" for bool). Throws
  // UsageError for an unknown or read-only name or a value of the wrong type.
  void set(std::string_view name, std::string_view text);
  // Typed set, for code; `force` also writes read-only flags (a backend recording what it found).
  void set_value(std::string_view name, FlagValue value, bool force = false);

  // Typed reads; throw std::logic_error for an unknown name or another type (a programming
  // error, not a user one).
  bool get_bool(std::string_view name) const;
  std::int64_t get_int(std::string_view name) const;
  double get_double(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;

  // Every flag in definition order.
  const std::vector<Flag>& list() const { return flags_; }

 private:
  const Flag& find(std::string_view name) const;
  Flag* find_mutable(std::string_view name);
  std::vector<Flag> flags_;
};

}  // namespace tfjsi::runtime
