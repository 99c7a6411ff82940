// The tfjsi commands. Each returns the process exit code; errors travel as exceptions and are
// turned into exit codes by main().
#pragma once

#include <span>
#include <string>

namespace tfjsi::cli {

int info_command(std::span<const std::string> argv);
int run_command(std::span<const std::string> argv);
int bench_command(std::span<const std::string> argv);
int memcheck_command(std::span<const std::string> argv);
int env_command(std::span<const std::string> argv);
int check_fp16_command(std::span<const std::string> argv);
int compare_command(std::span<const std::string> argv);
int quantize_command(std::span<const std::string> argv);
int reduce_command(std::span<const std::string> argv);

}  // namespace tfjsi::cli
