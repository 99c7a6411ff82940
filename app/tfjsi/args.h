// Command-line options of one tfjsi command: declared up front, so an unknown or malformed option
// is a usage error (exit 2) rather than something silently ignored.
#pragma once

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tfjsi::cli {

struct OptionSpec {
  std::string_view name;  // without the leading "--"
  bool takes_value = false;
  bool repeatable = false;
};

class Args {
 public:
  // Parses `argv` (the words after the command name). "--name value" and "--name=value" both
  // work. Throws UsageError for unknown options, missing values and repeats of single options.
  static Args parse(std::span<const std::string> argv, std::span<const OptionSpec> specs);

  const std::vector<std::string>& positional() const { return positional_; }
  bool flag(std::string_view name) const;
  std::optional<std::string> value(std::string_view name) const;
  std::vector<std::string> values(std::string_view name) const;
  // The option as an integer in [min, max], or `fallback` when absent; UsageError otherwise.
  int int_value(std::string_view name, int fallback, int min, int max) const;
  // The option as a number > 0, or `fallback` when absent; UsageError otherwise.
  double positive_value(std::string_view name, double fallback) const;
  // The option as a comma-separated list ("cpu,xnnpack,gl"), empty items dropped; `fallback`
  // when absent.
  std::vector<std::string> list_value(std::string_view name, std::string_view fallback = {}) const;

 private:
  std::vector<std::string> positional_;
  std::map<std::string, std::vector<std::string>, std::less<>> options_;
};

}  // namespace tfjsi::cli
