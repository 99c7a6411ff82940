// tfjsi bench MODEL [--backend ...] [--precision ...] [--warmup N] [--runs N] [--threads N]
//                   [--switch-from PRECISION] [--profile] [--json]
// Times a model the way TF.js's benchmark page does: load, first run (kernel set-up, shader
// compile, weight upload), then warm runs (median, min, max), optionally per kernel. With
// --switch-from, the first run is the first after a live precision switch, as the app makes one:
// one run at that precision first, its background builds finished, then the switch.
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <map>

#include "analysis/node_cost.h"
#include "args.h"
#include "commands.h"
#include "core/error.h"
#include "engine_setup.h"
#include "inputs.h"
#include "model_arg.h"
#include "process_memory.h"
#include "progress_line.h"
#include "run_report.h"
#include "runtime/benchmark.h"
#include "runtime/profiler.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

double ms_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int bench_command(std::span<const std::string> argv) {
  std::vector<OptionSpec> specs(std::begin(kEngineOptions), std::end(kEngineOptions));
  specs.insert(specs.end(), {{"warmup", true},
                             {"runs", true},
                             {"profile"},
                             {"input", true, true},
                             {"switch-from", true},
                             {"json"}});
  const Args args = Args::parse(argv, specs);
  if (args.positional().size() != 1) throw UsageError("bench takes one MODEL");
  const int warmup = args.int_value("warmup", 3, 0, 100000);
  const int runs = args.int_value("runs", 20, 1, 100000);
  auto engine = make_engine(args);
  runtime::Backend& backend = engine->backend();
  const bool gl = backend.name() == "gl", xnn = backend.name() == "xnnpack";

  const LoadedModel m = load_model(args.positional()[0]);
  engine->open_model(m.bundle);  // backends key what they cache on disk by it
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));
  const ProgressLine progress(*engine, !args.flag("json"));

  // A live switch, as the app's Run dock makes one (RunController): a first run at the other
  // precision in this process, the builds it leaves for later finished (the app's run thread
  // waits for them before its next request), then the precision set and a new executor, whose
  // weights are made again at the new precision.
  nlohmann::json switched = nullptr;
  if (const auto from = args.value("switch-from")) {
    const runtime::Precision target = engine->precision(),
                             before = parse_precision(*from, "--switch-from");
    if (before == target)
      throw UsageError("--switch-from " + *from + " is the precision bench runs at");
    engine->set_precision(before);
    if (engine->precision() != before)
      throw UsageError("--switch-from " + *from + ": backend '" + std::string(backend.name()) +
                       "' cannot run at that precision here");
    backend.reset_stats();
    const auto t = std::chrono::steady_clock::now();
    runtime::Executor(*engine, *m.graph).run(inputs.tensors);
    const double ms = ms_since(t);
    const runtime::BackendStats s = backend.stats();
    backend.settle();
    engine->set_precision(target);
    switched = {{"precision", std::string(runtime::to_string(before))}, {"first_ms", ms}};
    if (gl) {
      switched["compile_ms"] = s.compile_ms;
      switched["new_programs"] = s.new_kernels;
      switched["built_ahead"] = s.built_ahead;
    }
  }
  runtime::Executor executor(*engine, *m.graph);

  backend.reset_stats();
  auto t0 = std::chrono::steady_clock::now();
  executor.run(inputs.tensors);
  const double first_ms = ms_since(t0);
  const runtime::BackendStats first = backend.stats();
  backend.settle();  // what the backend builds after the first run does not share the timed ones
  runtime::Profiler profiler(*engine);
  const bool profile = args.flag("profile");
  const runtime::RunTimes timed = runtime::time_runs(
      warmup, runs,
      [&] {
        const auto start = std::chrono::steady_clock::now();
        executor.run(inputs.tensors);
        return ms_since(start);
      },
      {},
      [&] {
        if (profile) engine->add_observer(&profiler);
      });
  if (profile) engine->remove_observer(&profiler);
  // GPU time per op from GL timer queries (GL_TIME_ELAPSED), where the driver has them: as many
  // runs again, apart from the timed ones, whose wall times the queries would inflate.
  const auto device = backend.device();
  const bool gpu_timing = profile && gl && device && device->timer_queries;
  std::map<std::string, double> gpu_ms;
  if (gpu_timing) {
    engine->flags().set_value("gl.timer_queries", true);
    backend.reset_stats();
    for (int i = 0; i < runs; ++i) executor.run(inputs.tensors);
    gpu_ms = backend.stats().device_ms_by_op;
    engine->flags().set_value("gl.timer_queries", false);
  }

  nlohmann::json j = {{"model", m.bundle.model_json.string()},
                      {"backend", std::string(engine->backend().name())},
                      {"precision", std::string(runtime::to_string(engine->precision()))},
                      {"threads", engine->threads()},
                      {"load_ms", m.load_ms},
                      {"first_ms", first_ms},
                      {"warmup", warmup},
                      {"runs", runs},
                      {"median_ms", timed.median_ms},
                      {"min_ms", timed.min_ms},
                      {"max_ms", timed.max_ms},
                      {"times_ms", timed.ms},
                      {"peak_rss_mb", static_cast<double>(process_memory().peak_rss_kb) / 1024.0},
                      {"peak_tensor_bytes", engine->peak_bytes()}};
  // With --switch-from: the run before the switch (first_ms above is the first after it).
  if (!switched.is_null()) j["switched_from"] = switched;
  // The backend's counters over the first, warm-up and timed runs, not the FLOP count's below.
  const runtime::BackendStats after_timed = backend.stats();
  // FLOPs of one run from the shapes it really had (analysis/node_cost.h): a run of its own
  // after the measured ones, which an observer would slow (the backend still fuses as it would,
  // so gl builds no program the measured runs did not).
  analysis::CostCounter cost;
  {
    engine->add_observer(&cost);
    executor.run(inputs.tensors);
    engine->remove_observer(&cost);
    j["flops"] = cost.flops();
    j["gflops_per_s"] = static_cast<double>(cost.flops()) / (timed.median_ms * 1e6);
  }
  if (gl) {
    j["compile_ms"] = first.compile_ms;
    j["upload_ms"] = first.upload_ms;
    // No new program met in the first run means every one came from the disk cache.
    j["new_programs"] = first.new_kernels;
    // Of those, programs whose code worker threads built while the run went on (llvmpipe), and
    // the workers' time on them, summed.
    j["built_ahead"] = first.built_ahead;
    j["ahead_ms"] = first.ahead_ms;
    // A hit: every program the first run needed came from a saved binary, none from source.
    j["cache_hit"] = first.cache_hit();
    // Each program the first run built from source, longest first: where compile_ms went.
    std::vector<runtime::KernelBuild> builds = first.builds;
    std::stable_sort(builds.begin(), builds.end(),
                     [](const auto& a, const auto& b) { return a.ms > b.ms; });
    nlohmann::json bj = nlohmann::json::array();
    for (const auto& b : builds)
      bj.push_back({{"kernel", b.kernel},
                    {"variant", b.variant},
                    {"op", b.op},
                    {"node", b.node},
                    {"ms", b.ms},
                    {"ahead", b.ahead}});
    j["builds"] = bj;
  }
  if (xnn) {
    // Partitions run as XNNPACK subgraph runtimes (flag xnnpack.subgraph); the rest node by node.
    nlohmann::json p = partition_report(*executor.plan().graph, executor.plan());
    const runtime::BackendStats& s = after_timed;
    p["enabled"] = engine->flags().get_bool("xnnpack.subgraph") && engine->flags().get_bool("fuse");
    p["runtimes_created"] = s.runtimes_created;
    // On the thread pool; the rest on the calling thread alone.
    p["runtimes_pooled"] = s.runtimes_pooled;
    p["runtimes_single_thread"] = s.runtimes_single_thread;
    p["runtimes_refused"] = s.runtimes_refused;
    p["partition_runs"] = s.partition_runs;
    // Left to the operator path (other shapes, flag).
    p["partition_runs_declined"] = s.partition_runs_declined;
    // Nodes outside partitions: timed both ways in their first run (pool_choice.h), and the runs
    // of them on the thread pool, over the first, warm-up and timed runs.
    p["node_trials"] = s.node_trials;
    p["pooled_node_runs"] = s.pooled_node_runs;
    // The pool's workers spin between the pieces of a run and are sent to sleep at its end, or
    // after every piece while the machine is busy (worker_spin.h): how often that happened.
    p["worker_parks"] = s.worker_parks;
    // This XNNPACK (Debian's 2022 snapshot) has no xnn_get_runtime_profiling_info: a profile
    // times each partition as a whole, on its first node; the others report as fused into it.
    p["profile_timing"] = "per_partition";
    j["xnnpack"] = p;
  }
  if (const auto& sink = executor.sink_report(); sink && sink->transposes_before > 0) {
    // graph::sink_transposes: Transposes the runs execute before and after moving them.
    j["transposes"] = {{"before", sink->transposes_before},
                       {"after", sink->transposes_after},
                       {"elements_before", sink->elements_before},
                       {"elements_after", sink->elements_after},
                       {"used", sink->kept}};
  }
  if (args.flag("profile")) {
    nlohmann::json ops = nlohmann::json::array();
    for (const auto& o : profiler.by_op()) {
      nlohmann::json oj = {
          {"op", o.op}, {"calls", o.calls / runs}, {"fused", o.fused / runs}, {"ms", o.ms / runs}};
      // The op's FLOPs and bytes a run, from the shapes; GFLOP/s over its own time (a fused
      // op's work is timed in the kernel before it, which then looks faster than it is).
      const auto c = cost.by_op().find(o.op);
      const std::int64_t flops = c == cost.by_op().end() ? 0 : c->second.flops;
      oj["flops"] = flops;
      oj["bytes"] = c == cost.by_op().end() ? 0 : c->second.bytes;
      oj["gflops_per_s"] = o.ms > 0 && flops > 0
                               ? nlohmann::json(static_cast<double>(flops) / (o.ms / runs * 1e6))
                               : nlohmann::json(nullptr);
      ops.push_back(oj);
    }
    j["profile"] = {{"ops", ops}, {"kernel_ms", profiler.total_ms() / runs}};
    if (gl) {
      // GPU time per op and run from GL timer queries; null when the driver has none.
      nlohmann::json gpu = nullptr;
      if (gpu_timing) {
        gpu = nlohmann::json::array();
        double total = 0;
        for (const auto& [op, ms] : gpu_ms) {
          gpu.push_back({{"op", op}, {"ms", ms / runs}});
          total += ms / runs;
        }
        std::sort(gpu.begin(), gpu.end(),
                  [](const auto& a, const auto& b) { return a["ms"] > b["ms"]; });
        j["profile"]["gl_gpu_ms"] = total;
      }
      j["profile"]["gl_ops"] = gpu;
    }
  }

  if (args.flag("json")) {
    std::cout << json_text(j) << '\n';
    return 0;
  }
  std::cout << std::fixed << std::setprecision(2) << m.bundle.model_json.string() << " on "
            << j["backend"].get<std::string>() << " (" << j["precision"].get<std::string>() << ", "
            << engine->threads() << " threads)\n"
            << "  load    " << m.load_ms << " ms\n";
  if (!switched.is_null())
    std::cout << "  before  " << switched["first_ms"].get<double>() << " ms, the first run at "
              << switched["precision"].get<std::string>() << " (then a live switch)\n";
  std::cout << "  first   " << first_ms << " ms\n"
            << "  warm    median " << j["median_ms"].get<double>() << " ms, min "
            << j["min_ms"].get<double>() << ", max " << j["max_ms"].get<double>() << " (" << runs
            << " runs after " << warmup << " warm-up)\n"
            << "  compute " << static_cast<double>(j["flops"].get<std::int64_t>()) / 1e6
            << " MFLOP a run, " << j["gflops_per_s"].get<double>() << " GFLOP/s\n"
            << "  peak RSS " << j["peak_rss_mb"].get<double>() << " MiB\n";
  if (gl) {
    std::cout << "  gl: compile " << j["compile_ms"].get<double>() << " ms, upload "
              << j["upload_ms"].get<double>() << " ms, disk cache "
              << (j["cache_hit"].get<bool>() ? "hit" : "miss") << '\n';
    // The longest builds (the JSON has them all); worker threads build in parallel, so their
    // sum can pass compile_ms.
    const auto& builds = j["builds"];
    constexpr std::size_t kShown = 8;
    if (!builds.empty())
      std::cout << "  built   " << builds.size() << " program" << (builds.size() == 1 ? "" : "s")
                << " from source, longest first (ms, on a worker thread or at first use):\n";
    double rest_ms = 0;
    for (std::size_t i = 0; i < builds.size(); ++i) {
      const auto& b = builds[i];
      if (i >= kShown) {
        rest_ms += b["ms"].get<double>();
        continue;
      }
      std::cout << "    " << std::setw(9) << b["ms"].get<double>() << "  "
                << (b["ahead"].get<bool>() ? "worker" : "in run") << "  "
                << b["kernel"].get<std::string>() << "  " << b["variant"].get<std::string>()
                << (b["node"].get<std::string>().empty()
                        ? std::string()
                        : "  (first: " + b["op"].get<std::string>() + " '" +
                              b["node"].get<std::string>() + "')")
                << '\n';
    }
    if (builds.size() > kShown)
      std::cout << "    " << std::setw(9) << rest_ms << "  " << builds.size() - kShown << " more\n";
  }
  if (j.contains("xnnpack")) {
    const auto& p = j["xnnpack"];
    std::cout << "  xnnpack: " << p["nodes_in_partitions"].get<int>() << " nodes in "
              << p["partitions"].get<std::size_t>() << " subgraph partitions"
              << (p["enabled"].get<bool>() ? "" : " (not used: flag xnnpack.subgraph or fuse off)")
              << ", " << p["nodes_outside"].get<int>() << " node by node, "
              << p["fallbacks"].get<std::size_t>()
              << " on cpu; runtimes: " << p["runtimes_pooled"].get<std::int64_t>()
              << " on the pool, " << p["runtimes_single_thread"].get<std::int64_t>()
              << " single-threaded; nodes: " << p["node_trials"].get<std::int64_t>()
              << " timed both ways, " << p["pooled_node_runs"].get<std::int64_t>()
              << " runs on the pool\n";
  }
  if (j.contains("transposes")) {
    const auto& t = j["transposes"];
    std::cout << "  transposes: " << t["before"].get<int>() << " in the graph, "
              << (t["used"].get<bool>() ? std::to_string(t["after"].get<int>()) +
                                              " once moved past elementwise ops, pads and concats"
                                        : std::string("none cancel when moved"))
              << '\n';
  }
  if (j.contains("profile")) {
    std::cout << "  per op (ms and FLOPs per run):\n";
    for (const auto& o : j["profile"]["ops"]) {
      std::cout << "    " << std::setw(10) << o["ms"].get<double>() << "  " << std::setw(5)
                << o["calls"].get<int>() << "x  " << std::setw(12)
                << analysis::format_flops(static_cast<double>(o["flops"].get<std::int64_t>()))
                << "  " << o["op"].get<std::string>();
      if (const int fused = o["fused"].get<int>())
        std::cout << " (" << (fused == o["calls"].get<int>() ? "all" : std::to_string(fused))
                  << " inside the kernel before them)";
      std::cout << '\n';
    }
    if (j["profile"].contains("gl_ops") && j["profile"]["gl_ops"].is_array()) {
      std::cout << "  gl GPU time per op (timer queries, ms per run; total "
                << j["profile"]["gl_gpu_ms"].get<double>() << "):\n";
      for (const auto& o : j["profile"]["gl_ops"])
        std::cout << "    " << std::setw(10) << o["ms"].get<double>() << "  "
                  << o["op"].get<std::string>() << '\n';
      // llvmpipe answers every GL_TIME_ELAPSED query with about a nanosecond: its compute work
      // is not inside what the query measures.
      if (j["profile"]["gl_gpu_ms"].get<double>() < 0.01 * j["profile"]["kernel_ms"].get<double>())
        std::cout << "    (under 1% of the kernels' wall time: this driver's timer queries do "
                     "not measure its compute work)\n";
    } else if (gl) {
      std::cout << "  gl GPU time: the driver has no timer queries\n";
    }
  }
  return 0;
}

}  // namespace tfjsi::cli
