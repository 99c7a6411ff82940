#include "runtime/flags.h"

#include <charconv>
#include <stdexcept>

#include "core/error.h"

namespace tfjsi::runtime {

std::string flag_value_to_string(const FlagValue& value) {
  struct Visitor {
    std::string operator()(bool b) const { return b ? "true" : "false"; }
    std::string operator()(std::int64_t i) const { return std::to_string(i); }
    std::string operator()(double d) const {
      std::string s = std::to_string(d);
      return s;
    }
    std::string operator()(const std::string& s) const { return s; }
  };
  return std::visit(Visitor{}, value);
}

void Flags::define(std::string name, FlagValue initial, std::string help, bool read_only) {
  if (has(name)) return;
  flags_.push_back({std::move(name), std::move(initial), std::move(help), read_only});
}

bool Flags::has(std::string_view name) const {
  for (const auto& f : flags_)
    if (f.name == name) return true;
  return false;
}

const Flag& Flags::find(std::string_view name) const {
  for (const auto& f : flags_)
    if (f.name == name) return f;
  throw std::logic_error("no flag named '" + std::string(name) + "'");
}

Flag* Flags::find_mutable(std::string_view name) {
  for (auto& f : flags_)
    if (f.name == name) return &f;
  return nullptr;
}

void Flags::set(std::string_view name, std::string_view text) {
  Flag* f = find_mutable(name);
  if (!f) {
    std::string known;
    for (const auto& g : flags_) known += (known.empty() ? "" : ", ") + g.name;
    throw UsageError("unknown flag '" + std::string(name) + "' (flags: " + known + ")");
  }
  if (f->read_only) throw UsageError("flag '" + f->name + "' is read-only");
  const std::string t(text);
  auto bad = [&](std::string_view expected) {
    return UsageError("flag '" + f->name + "' takes " + std::string(expected) + ", got '" + t +
                      "'");
  };
  if (std::holds_alternative<bool>(f->value)) {
    if (t == "true" || t == "1" || t == "on")
      f->value = true;
    else if (t == "false" || t == "0" || t == "off")
      f->value = false;
    else
      throw bad("true or false");
  } else if (std::holds_alternative<std::int64_t>(f->value)) {
    std::int64_t v = 0;
    auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size()) throw bad("an integer");
    f->value = v;
  } else if (std::holds_alternative<double>(f->value)) {
    try {
      std::size_t used = 0;
      const double v = std::stod(t, &used);
      if (used != t.size()) throw bad("a number");
      f->value = v;
    } catch (const std::logic_error&) {
      throw bad("a number");
    }
  } else {
    f->value = t;
  }
}

void Flags::set_value(std::string_view name, FlagValue value, bool force) {
  Flag* f = find_mutable(name);
  if (!f) throw std::logic_error("no flag named '" + std::string(name) + "'");
  if (f->read_only && !force) throw UsageError("flag '" + f->name + "' is read-only");
  if (f->value.index() != value.index())
    throw std::logic_error("flag '" + f->name + "' set with a value of another type");
  f->value = std::move(value);
}

bool Flags::get_bool(std::string_view name) const {
  return std::get<bool>(find(name).value);
}
std::int64_t Flags::get_int(std::string_view name) const {
  return std::get<std::int64_t>(find(name).value);
}
double Flags::get_double(std::string_view name) const {
  return std::get<double>(find(name).value);
}
const std::string& Flags::get_string(std::string_view name) const {
  return std::get<std::string>(find(name).value);
}

}  // namespace tfjsi::runtime
