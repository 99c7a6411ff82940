#include "reduce_job.h"

#include <algorithm>

#include "analysis/reduce_to_folder.h"
#include "runtime/engine.h"

namespace tfjsi::ui {

ReduceResultPtr run_reduce(runtime::Engine& engine, const ReduceRequest& request,
                           const std::atomic<bool>* cancel,
                           const std::function<void(const analysis::ReduceStep&)>& on_step) {
  const LoadedModel& m = *request.model;
  const runtime::NamedTensors inputs = make_inputs(*m.graph, request.inputs);
  engine.set_threads(static_cast<std::size_t>(std::max(0, request.threads)));
  analysis::OutputFolder folder(request.out.toStdString(), m.bundle.dir, "The folder");
  analysis::ReduceOptions options;
  options.condition = request.condition;
  options.on_step = on_step;
  options.cancel = cancel;
  const auto done = analysis::reduce_to_folder(engine, m.bundle, *m.graph, inputs, options, folder);
  if (!done)
    throw NothingToReduce("The condition " + request.condition.text() +
                          " never holds on the whole model with these inputs: nothing to reduce, "
                          "nothing written.");
  auto r = std::make_shared<ReduceResult>();
  r->model = request.model;
  r->condition = request.condition;
  r->out = QString::fromStdString(folder.out().string());
  r->model_json = QString::fromStdString((folder.out() / "model.json").string());
  r->nodes_before = done->reduction.nodes_before;
  r->nodes_after = done->nodes_after;
  r->steps = done->reduction.steps;
  r->inputs = static_cast<int>(done->reduction.subgraph.inputs.size());
  r->culprit = done->confirmed.node;
  r->culprit_op = done->confirmed.op;
  r->summary = done->confirmed.summary(request.condition);
  r->bytes = done->bytes;
  r->files = done->files;
  r->seconds = done->seconds;
  return r;
}

}  // namespace tfjsi::ui
