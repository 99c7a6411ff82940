// Everything tfjsi prints to stdout and stderr passes through terminal_safe_lines(): whatever
// print site a model's text reaches (a name, generatedBy, an error message), no control character
// gets to the terminal. JSON output is unchanged by it: json_text() writes pure ASCII.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace tfjsi::cli {

class SafeOutput {
 public:
  // Filters std::cout and std::cerr until destroyed (which flushes them).
  SafeOutput();
  ~SafeOutput();
  SafeOutput(const SafeOutput&) = delete;
  SafeOutput& operator=(const SafeOutput&) = delete;

 private:
  class Filter;
  std::unique_ptr<Filter> out_, err_;
};

// `--json` output: indented, non-ASCII as \u escapes (so no byte a terminal might act on).
std::string json_text(const nlohmann::json& j);

}  // namespace tfjsi::cli
