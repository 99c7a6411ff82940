// tfjsi memcheck MODEL [--runs N] [--switch cpu,xnnpack,gl] [--json]: runs the model again and
// again (switching backend on every run when asked) and reports whether live tensors, bytes and
// resident memory come back to the same level after each run. GL objects (textures, buffers,
// shaders, programs, queries, fences) alive in the process are reported with them: the gl backend
// caches programs, so they grow while new shapes are met and must stay flat after that.
#include <malloc.h>

#include <iostream>
#include <optional>
#include <set>

#include "args.h"
#include "commands.h"
#include "core/error.h"
#include "core/terminal_text.h"
#include "engine_setup.h"
#include "inputs.h"
#include "model_arg.h"
#include "process_memory.h"
#include "safe_output.h"

namespace tfjsi::cli {
namespace {

// Bytes the C heap hands out now, every arena included (glibc sums them). Against VmRSS it tells
// live allocations from memory the allocator keeps after frees (fragmentation, per-thread arenas
// of driver threads).
std::int64_t heap_in_use_kb() {
  const struct mallinfo2 m = ::mallinfo2();
  return static_cast<std::int64_t>((m.uordblks + m.hblkhd) / 1024);
}

nlohmann::json to_json(const runtime::DeviceObjectCounts& c) {
  return {{"textures", c.textures}, {"buffers", c.buffers}, {"shaders", c.shaders},
          {"programs", c.programs}, {"queries", c.queries}, {"fences", c.fences},
          {"total", c.total()}};
}

// What one run left behind. Kept as plain values in storage reserved before the first run, so
// that recording the runs does not itself grow the heap this command measures.
struct RunRecord {
  std::size_t backend = 0;  // index into the cycle
  runtime::MemoryUse use;
  std::size_t cached_bytes = 0;
  runtime::DeviceObjectCounts gl_objects;
  std::int64_t rss_kb = 0, heap_in_use_kb = 0;
};

}  // namespace

int memcheck_command(std::span<const std::string> argv) {
  std::vector<OptionSpec> specs(std::begin(kEngineOptions), std::end(kEngineOptions));
  specs.insert(specs.end(), {{"runs", true}, {"switch", true}, {"input", true, true}, {"json"}});
  const Args args = Args::parse(argv, specs);
  if (args.positional().size() != 1) throw UsageError("memcheck takes one MODEL");
  const int runs = args.int_value("runs", 100, 1, 1000000);
  auto engine = make_engine(args);
  std::vector<std::string> cycle = args.list_value("switch");
  if (cycle.empty()) cycle.push_back(std::string(engine->backend().name()));
  for (const auto& b : cycle) engine->set_backend(b);  // unavailable ones fail now, with exit 3

  const LoadedModel m = load_model(args.positional()[0]);
  engine->open_model(m.bundle);  // backends key what they cache on disk by it
  const ModelInputs inputs = make_inputs(*m.graph, args.values("input"));
  runtime::Executor executor(*engine, *m.graph);

  const auto before = engine->memory().total;
  const auto gl_before = engine->live_device_objects();
  const auto live_before = engine->live_tensors();
  std::vector<RunRecord> records;
  records.reserve(static_cast<std::size_t>(runs));
  std::int64_t rss_first = 0;
  // The first cycle copies the weights to every backend and builds programs; the second lets the
  // backends' pools reach the most they hold at once (a texture freed in the first run may have
  // gone to a weight). From the end of the second cycle on, every run must leave exactly the same
  // tensors, bytes and GL objects behind.
  const int settle_runs = 2 * static_cast<int>(cycle.size());
  std::optional<runtime::MemoryUse> settled;
  std::int64_t settled_gl = 0;
  bool stable = true;
  for (int r = 0; r < runs; ++r) {
    const std::size_t backend = static_cast<std::size_t>(r) % cycle.size();
    engine->set_backend(cycle[backend]);
    executor.run(inputs.tensors);
    const auto info = engine->memory();
    const auto& use = info.total;
    const auto gl_now = engine->live_device_objects();
    const auto rss = process_memory().rss_kb;
    if (r == 0) rss_first = rss;
    if (r + 1 == settle_runs) {
      settled = use;
      settled_gl = gl_now.total();
    }
    if (settled && r + 1 > settle_runs &&
        (use.num_tensors != settled->num_tensors || use.num_bytes != settled->num_bytes ||
         gl_now.total() != settled_gl))
      stable = false;
    records.push_back({backend, use, info.cached_bytes, gl_now, rss, heap_in_use_kb()});
  }
  const auto after = engine->memory().total;
  const auto gl_after = engine->live_device_objects();
  const std::int64_t rss_last = process_memory().rss_kb;

  nlohmann::json per_run = nlohmann::json::array();
  for (const RunRecord& rec : records)
    per_run.push_back({{"backend", cycle[rec.backend]},
                       {"tensors", rec.use.num_tensors},
                       {"data_buffers", rec.use.num_data_buffers},
                       {"bytes", rec.use.num_bytes},
                       {"cached_bytes", rec.cached_bytes},
                       {"gl_objects", to_json(rec.gl_objects)},
                       {"rss_kb", rec.rss_kb},
                       {"heap_in_use_kb", rec.heap_in_use_kb}});

  // Tensors alive now that were not before the first run: leaks, with the node that made them.
  nlohmann::json leaked = nlohmann::json::array();
  std::set<runtime::TensorId> old;
  for (const auto& t : live_before) old.insert(t.id);
  for (const auto& t : engine->live_tensors())
    if (!old.count(t.id))
      leaked.push_back({{"id", t.id},
                        {"creator", t.creator},
                        {"shape", t.shape},
                        {"dtype", std::string(to_string(t.dtype))}});

  nlohmann::json j = {{"model", m.bundle.model_json.string()},
                      {"runs", runs},
                      {"switch", cycle},
                      {"tensors_before", before.num_tensors},
                      {"tensors_after", after.num_tensors},
                      {"data_buffers_before", before.num_data_buffers},
                      {"data_buffers_after", after.num_data_buffers},
                      {"bytes_before", before.num_bytes},
                      {"bytes_after", after.num_bytes},
                      {"gl_objects_before", to_json(gl_before)},
                      {"gl_objects_after", to_json(gl_after)},
                      {"rss_kb_first", rss_first},
                      {"rss_kb_last", rss_last},
                      {"stable", stable && leaked.empty()},
                      {"leaked", leaked},
                      {"per_run", per_run}};
  if (args.flag("json")) {
    std::cout << json_text(j) << '\n';
  } else {
    std::cout << runs << " runs of " << m.bundle.model_json.string() << '\n'
              << "  tensors  " << before.num_tensors << " -> " << after.num_tensors << '\n'
              << "  bytes    " << before.num_bytes << " -> " << after.num_bytes << '\n'
              << "  GL objs  " << gl_before.total() << " -> " << gl_after.total() << '\n'
              << "  RSS      " << rss_first << " KiB after run 1, " << rss_last << " KiB after run "
              << runs << '\n';
    for (const auto& l : leaked)
      std::cout << "  leaked tensor " << l["id"] << " " << l["shape"].dump() << " made by "
                << terminal_safe(l["creator"].get<std::string>()) << '\n';
    std::cout << (j["stable"].get<bool>() ? "  stable: no growth\n" : "  NOT stable\n");
  }
  return 0;
}

}  // namespace tfjsi::cli
