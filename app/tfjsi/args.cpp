#include "args.h"

#include <charconv>
#include <cstdlib>

#include "core/error.h"

namespace tfjsi::cli {

Args Args::parse(std::span<const std::string> argv, std::span<const OptionSpec> specs) {
  Args a;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (!word.starts_with("--") || word == "--") {
      a.positional_.push_back(word);
      continue;
    }
    std::string name = word.substr(2);
    std::optional<std::string> inline_value;
    if (auto eq = name.find('='); eq != std::string::npos) {
      inline_value = name.substr(eq + 1);
      name.resize(eq);
    }
    const OptionSpec* spec = nullptr;
    for (const auto& s : specs)
      if (s.name == name) spec = &s;
    if (!spec) throw UsageError("unknown option --" + name);
    auto& slot = a.options_[name];
    if (!slot.empty() && !spec->repeatable) throw UsageError("--" + name + " given twice");
    if (spec->takes_value) {
      if (inline_value) {
        slot.push_back(*inline_value);
      } else {
        if (i + 1 >= argv.size()) throw UsageError("--" + name + " needs a value");
        slot.push_back(argv[++i]);
      }
    } else {
      if (inline_value) throw UsageError("--" + name + " takes no value");
      slot.push_back("");
    }
  }
  return a;
}

bool Args::flag(std::string_view name) const {
  return options_.find(name) != options_.end();
}

std::optional<std::string> Args::value(std::string_view name) const {
  auto it = options_.find(name);
  if (it == options_.end() || it->second.empty()) return std::nullopt;
  return it->second.back();
}

std::vector<std::string> Args::values(std::string_view name) const {
  auto it = options_.find(name);
  return it == options_.end() ? std::vector<std::string>{} : it->second;
}

int Args::int_value(std::string_view name, int fallback, int min, int max) const {
  auto v = value(name);
  if (!v) return fallback;
  int out = 0;
  auto [ptr, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc() || ptr != v->data() + v->size() || out < min || out > max)
    throw UsageError("--" + std::string(name) + " expects an integer from " + std::to_string(min) +
                     " to " + std::to_string(max) + ", got '" + *v + "'");
  return out;
}

double Args::positive_value(std::string_view name, double fallback) const {
  const auto v = value(name);
  if (!v) return fallback;
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  if (end == v->c_str() || *end != '\0' || !(d > 0) || d > 1e30)
    throw UsageError("--" + std::string(name) + " expects a positive number, got '" + *v + "'");
  return d;
}

std::vector<std::string> Args::list_value(std::string_view name, std::string_view fallback) const {
  const std::string s = value(name).value_or(std::string(fallback));
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size()) {
    const std::size_t comma = std::min(s.find(',', start), s.size());
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace tfjsi::cli
