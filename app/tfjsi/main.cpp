// tfjsi: the command line of tfjs-inspector. See DESIGN.md for the contract: commands, options,
// JSON output and exit codes (0 ok, 1 bad model or input, 2 usage, 3 backend unavailable).
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "safe_output.h"

namespace {

constexpr const char* kUsage = R"(usage: tfjsi COMMAND MODEL [options]

commands:
  info     MODEL [--json]                  what the bundle holds: signature, ops, weights
  run      MODEL [ENGINE] [--input [NAME=]FILE.npy]... [--out DIR] [--json]
                                           run once; outputs as .npy with --out
  bench    MODEL [ENGINE] [--warmup N] [--runs N] [--profile] [--json]
           [--switch-from fp32|fp16]       load, first-run and warm-run times; with
                                           --switch-from, the first run is the first after a
                                           live switch from that precision (as in the app)
  memcheck MODEL [ENGINE] [--runs N] [--switch cpu,xnnpack,gl] [--json]
                                           live tensors, bytes and RSS across runs
  check-fp16 MODEL [--input ...] [--json] [--threshold X] [--tolerance X] [--no-gl]
           [--rounding nearest-even|toward-zero] [--overflow inf|clamp] [--max-fix-runs N]
                                           does it survive half-float storage; which node
                                           leaves the range; nodes to keep in fp32 (checked)
  compare  MODEL --backends cpu,xnnpack,gl [--input ...] [--json] [--tolerance X]
           [--precision fp32|fp16] [--no-isolate]
                                           every node against cpu; divergent nodes re-run
                                           alone on cpu's inputs
  quantize MODEL --dtype float16|uint16|uint8 [--keep-float GLOB]... --out DIR
           [--input ...] [--json]          a bundle with its float32 weights quantized as
                                           tensorflowjs_converter does (uint8/uint16 affine
                                           with 0 exact, float16; 4 MiB shards); GLOB, a
                                           shell-style glob on weight names (fnmatch, as the
                                           converter's), keeps weights float32; DIR new or
                                           empty; reports the output drift on cpu
  quantize MODEL --advise [--tolerance T] [--candidates K] [--input ...] [--json]
                                           drift of each dtype, the weight groups whose float32
                                           keeping recovers it (K best-ranked groups tried,
                                           default 8; T default 0.01), the smallest bundle
                                           within T and the command that writes it
  reduce   MODEL --until fp16-overflow|nonfinite|diverge:A,B|error --out DIR
           [--backend B] [--precision fp32|fp16] [--tolerance X] [--input ...] [--json]
                                           cut the model down to the smallest subgraph whose
                                           node still shows the condition (outputs cut at it,
                                           inputs bisected, then node by node; cut tensors fed
                                           as recorded); DIR gets a graph-model bundle, its
                                           inputs as .npy and repro.js (TF.js in Node); one
                                           line per step on stderr; exit 1 if the whole model
                                           never shows it. B: the backend of nonfinite and
                                           error (default cpu); --precision: of B (for diverge,
                                           of its second backend)
  env      [--json] [--flag NAME=VALUE]... backends (available or why not) and flags
  env      --ops [--json]                  every op of TF.js's converter: which backends
                                           run it with their own kernels
  help                                     this text

ENGINE options: --backend auto|cpu|xnnpack|gl  --precision fp32|fp16  --threads N
                --flag NAME=VALUE (repeatable; see tfjsi env)

MODEL is a model.json file (any file name) or a folder holding model.json.
exit codes: 0 ok, 1 bad model or input, 2 usage, 3 backend not available
)";

struct Command {
  const char* name;
  int (*run)(std::span<const std::string>);
};

constexpr Command kCommands[] = {
    {"info", tfjsi::cli::info_command},       {"run", tfjsi::cli::run_command},
    {"bench", tfjsi::cli::bench_command},     {"memcheck", tfjsi::cli::memcheck_command},
    {"env", tfjsi::cli::env_command},         {"check-fp16", tfjsi::cli::check_fp16_command},
    {"compare", tfjsi::cli::compare_command}, {"quantize", tfjsi::cli::quantize_command},
    {"reduce", tfjsi::cli::reduce_command},
};

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> words(argv + 1, argv + argc);
  if (words.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string cmd = words.front();
  if (cmd == "help" || cmd == "--help" || cmd == "-h") {
    std::cout << kUsage;
    return 0;
  }
  std::span<const std::string> rest(words.data() + 1, words.size() - 1);
  // From here on every byte printed is escaped for the terminal; messages are one line each, so
  // a newline a model put in a name is escaped too.
  tfjsi::cli::SafeOutput safe_output;
  using tfjsi::terminal_safe;
  try {
    for (const auto& c : kCommands)
      if (cmd == c.name) return c.run(rest);
    throw tfjsi::UsageError("unknown command '" + cmd + "'");
  } catch (const tfjsi::UsageError& e) {
    std::cerr << "tfjsi: " << terminal_safe(e.what()) << "\n\n" << kUsage;
    return 2;
  } catch (const tfjsi::ModelError& e) {
    std::cerr << "tfjsi: error: " << terminal_safe(e.what()) << '\n';
    return 1;
  } catch (const tfjsi::BackendUnavailable& e) {
    std::cerr << "tfjsi: backend not available: " << terminal_safe(e.what()) << '\n';
    return 3;
  } catch (const std::bad_alloc&) {
    std::cerr << "tfjsi: error: out of memory\n";
    return 1;
  } catch (const std::exception& e) {
    // Anything else is our bug; the contract has no code for it, so it reports as a failure to
    // load, worded so that it is told apart from a message about the model.
    std::cerr << "tfjsi: internal error: " << terminal_safe(e.what()) << '\n';
    return 1;
  }
}
