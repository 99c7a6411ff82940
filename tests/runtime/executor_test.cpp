// The Executor on hand-built graphs: end-to-end values, intermediate freeing and peak memory,
// resident weights, TF1 loops and conds with TensorArray and TensorList, TF2 While/If, input
// validation, observers, fallback to cpu and plans.
#include <QtTest>

#include <chrono>
#include <functional>
#include <thread>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"
#include "runtime/executor.h"
#include "runtime/fake_backend.h"
#include "runtime/graph_builder.h"
#include "runtime/profiler.h"

using namespace tfjsi;
using namespace tfjsi::runtime;
using test::GraphBuilder;
using test::out;

namespace {

graph::AttrValue frame(const std::string& name) {
  return std::string(name);
}

// A TF1 while loop as tf.while_loop builds it: i = 0, s = 0; while i < 10: s += i; i += 1.
// Also writes i*i into a TensorArray at index i and sets item i of a TensorList to 2*i, and
// gathers/stacks both after the loop.
graph::Graph sum_loop(int limit) {
  GraphBuilder b;
  auto i0 = b.int_const("i0", 0);
  auto s0 = b.int_const("s0", 0);
  auto n = b.int_const("n", limit);
  auto one = b.int_const("one", 1);
  auto two = b.int_const("two", 2);
  auto ta =
      b.add("ta", "TensorArrayV3", {n},
            {{"dtype", graph::TypeAttr{"DT_INT32"}}, {"element_shape", PartialShape::of({})}});
  auto shape_scalar = b.add("elem_shape", "Const");
  b.g.nodes[shape_scalar.node].value = test::ints({0}, {});
  auto tl = b.add("tl", "TensorListReserve", {shape_scalar, n},
                  {{"element_dtype", graph::TypeAttr{"DT_INT32"}}});
  const auto F = frame("loop");
  auto enter = [&](std::string name, graph::TensorRef in, bool constant) {
    return b.add(std::move(name), "Enter", {in}, {{"frame_name", F}, {"is_constant", constant}});
  };
  auto ei = enter("enter_i", i0, false);
  auto es = enter("enter_s", s0, false);
  auto eflow = enter("enter_flow", out(ta, 1), false);
  auto etl = enter("enter_tl", tl, false);
  auto en = enter("enter_n", n, true);
  auto eone = enter("enter_one", one, true);
  auto etwo = enter("enter_two", two, true);
  auto eta = enter("enter_ta", ta, true);
  // Merge's second input is the NextIteration made below (a back edge).
  auto mi = b.add("merge_i", "Merge", {ei, ei});
  auto ms = b.add("merge_s", "Merge", {es, es});
  auto mflow = b.add("merge_flow", "Merge", {eflow, eflow});
  auto mtl = b.add("merge_tl", "Merge", {etl, etl});
  auto less = b.add("less", "T_Less", {mi, en});
  auto cond = b.add("cond", "LoopCond", {less});
  auto sw = [&](std::string name, graph::TensorRef in) {
    return b.add(std::move(name), "Switch", {in, cond});
  };
  auto swi = sw("switch_i", mi);
  auto sws = sw("switch_s", ms);
  auto swflow = sw("switch_flow", mflow);
  auto swtl = sw("switch_tl", mtl);
  auto id_i = b.add("body_i", "Identity", {out(swi, 1)});
  auto id_s = b.add("body_s", "Identity", {out(sws, 1)});
  auto add_s = b.add("add_s", "T_Add", {id_s, id_i});
  auto add_i = b.add("add_i", "T_Add", {id_i, eone});
  auto sq = b.add("square", "T_Mul", {id_i, id_i});
  auto write = b.add("write", "TensorArrayWriteV3", {eta, id_i, sq, out(swflow, 1)},
                     {{"T", graph::TypeAttr{"DT_INT32"}}});
  auto twice = b.add("twice", "T_Mul", {id_i, etwo});
  auto set = b.add("set", "TensorListSetItem", {out(swtl, 1), id_i, twice},
                   {{"element_dtype", graph::TypeAttr{"DT_INT32"}}});
  auto ni = b.add("next_i", "NextIteration", {add_i});
  auto ns = b.add("next_s", "NextIteration", {add_s});
  auto nflow = b.add("next_flow", "NextIteration", {write});
  auto ntl = b.add("next_tl", "NextIteration", {set});
  b.set_input(mi, 1, ni);
  b.set_input(ms, 1, ns);
  b.set_input(mflow, 1, nflow);
  b.set_input(mtl, 1, ntl);
  auto xs = b.add("exit_s", "Exit", {out(sws, 0)});
  auto xi = b.add("exit_i", "Exit", {out(swi, 0)});
  auto xflow = b.add("exit_flow", "Exit", {out(swflow, 0)});
  auto xtl = b.add("exit_tl", "Exit", {out(swtl, 0)});
  auto size = b.add("ta_size", "TensorArraySizeV3", {ta, xflow});
  auto zero = b.int_const("zero", 0);
  auto range_one = b.int_const("range_step", 1);
  (void)range_one;
  // Gather every index: indices come from a const, since Range is not ours to test here.
  auto idx = b.add("indices", "Const");
  std::vector<std::int32_t> all(limit);
  for (int k = 0; k < limit; ++k) all[k] = k;
  b.g.nodes[idx.node].value = test::ints({limit}, all);
  (void)zero;
  auto gather =
      b.add("gather", "TensorArrayGatherV3", {ta, idx, xflow},
            {{"dtype", graph::TypeAttr{"DT_INT32"}}, {"element_shape", PartialShape::of({})}});
  auto stack = b.add(
      "stack", "TensorListStack", {xtl, shape_scalar},
      {{"element_dtype", graph::TypeAttr{"DT_INT32"}}, {"num_elements", std::int64_t{limit}}});
  b.output("sum", xs);
  b.output("i", xi);
  b.output("squares", gather);
  b.output("size", size);
  b.output("twice", stack);
  return b.take();
}

}  // namespace

class ExecutorTest : public QObject {
  Q_OBJECT

 private slots:
  void hand_built_graph_end_to_end() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {-1, 3});
    auto w = b.vector_const("w", {1, -2, 3});
    auto bias = b.scalar_const("bias", 0.5f);
    auto mul = b.add("mul", "T_Mul", {x, w});
    auto add = b.add("add", "T_Add", {mul, bias});
    auto relu = b.add("relu", "T_Relu", {add});
    auto id = b.add("out", "Identity", {relu});
    b.output("y", id);
    b.output("pre", add);
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    const auto outs = ex.run({{"x", test::floats({2, 3}, {1, 1, 1, -1, 2, 0.5f})}});
    QCOMPARE(outs.size(), std::size_t{2});
    // y = relu(x * w + 0.5), by hand: row 0: 1.5, -1.5, 3.5; row 1: -0.5, -3.5, 2.
    QCOMPARE(test::float_values(outs[0]), (std::vector<float>{1.5f, 0, 3.5f, 0, 0, 2}));
    QCOMPARE(test::float_values(outs[1]), (std::vector<float>{1.5f, -1.5f, 3.5f, -0.5f, -3.5f, 2}));
    QCOMPARE(outs[0].shape, (Shape{2, 3}));

    // Outputs by name: an endpoint, a node, a node output.
    const std::vector<std::string> names{"pre", "mul", "relu:0"};
    const auto named = ex.run({{"x", test::floats({1, 3}, {1, 2, 3})}}, names);
    QCOMPARE(test::float_values(named[0]), (std::vector<float>{1.5f, -3.5f, 9.5f}));
    QCOMPARE(test::float_values(named[1]), (std::vector<float>{1, -4, 9}));
    QCOMPARE(test::float_values(named[2]), (std::vector<float>{1.5f, 0, 9.5f}));
    const std::vector<std::string> bad{"nope"};
    QVERIFY_THROWS_EXCEPTION(ModelError, ex.run({{"x", test::floats({1, 3}, {1, 2, 3})}}, bad));
  }

  // Setting an item inside a TensorList keeps its length (only resize_if_index_out_of_bounds
  // may grow it, and nothing shrinks it).
  void tensor_list_set_item_keeps_the_length() {
    GraphBuilder b;
    auto shape = b.int_const("element_shape", -1);
    auto three = b.int_const("three", 3);
    auto zero = b.int_const("zero", 0);
    auto seven = b.int_const("seven", 7);
    const std::map<std::string, graph::AttrValue, std::less<>> dt{
        {"element_dtype", graph::TypeAttr{"DT_INT32"}}};
    auto list = b.add("list", "TensorListReserve", {shape, three}, dt);
    auto set = b.add("set", "TensorListSetItem", {list, zero, seven}, dt);
    auto length = b.add("length", "TensorListLength", {set});
    b.output("length", length);
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    const auto outs = ex.run({});
    QCOMPARE(outs.at(0).values<std::int32_t>()[0], 3);
  }

  void memory_returns_to_start_and_weights_stay() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {4});
    auto w = b.vector_const("w", {1, 2, 3, 4});
    auto y = b.add("y", "T_Mul", {x, w});
    b.output("y", b.add("z", "T_Double", {y}));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    const auto empty = e.memory().total;
    QCOMPARE(empty.num_tensors, std::size_t{0});
    {
      Executor ex(e, g);
      const auto start = e.memory().total;
      QCOMPARE(start.num_tensors, std::size_t{1});  // the weight, wrapped once
      QCOMPARE(start.num_bytes, std::size_t{16});
      for (int run = 0; run < 3; ++run) {
        const auto o = ex.run({{"x", test::floats({4}, {1, 1, 1, 1})}});
        QCOMPARE(test::float_values(o[0]), (std::vector<float>{2, 4, 6, 8}));
        const auto after = e.memory().total;
        QCOMPARE(after.num_tensors, start.num_tensors);
        QCOMPARE(after.num_data_buffers, start.num_data_buffers);
        QCOMPARE(after.num_bytes, start.num_bytes);
      }
      // A failing run leaves nothing behind either.
      QVERIFY_THROWS_EXCEPTION(ModelError, ex.run({{"x", test::floats({3}, {1, 1, 1})}}));
      QCOMPARE(e.memory().total.num_tensors, start.num_tensors);
    }
    QCOMPARE(e.memory().total.num_tensors, std::size_t{0});
    QCOMPARE(e.memory().total.num_bytes, std::size_t{0});
  }

  void intermediates_die_after_last_use() {
    // A chain of 8 doublings of a 1 MiB tensor: freed as it goes, at most input + two links live.
    constexpr int kLinks = 8;
    constexpr std::int64_t kElems = 256 * 1024;
    GraphBuilder b;
    auto t = b.placeholder("x", DType::Float32, {kElems});
    for (int k = 0; k < kLinks; ++k) t = b.add("d" + std::to_string(k), "T_Double", {t});
    b.output("y", t);
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    Profiler prof(e);
    e.add_observer(&prof);
    const auto o = ex.run({{"x", HostTensor::zeros(DType::Float32, {kElems})}});
    e.remove_observer(&prof);
    QCOMPARE(o[0].num_elements(), kElems);
    QCOMPARE(static_cast<int>(prof.kernels().size()), kLinks);
    const std::size_t link = kElems * 4;
    QCOMPARE(prof.total_bytes_made(), kLinks * link);
    const std::size_t peak = prof.peak_bytes() - prof.start_bytes();
    QVERIFY2(peak <= 3 * link, qPrintable(QString("peak %1 bytes").arg(peak)));
    QVERIFY(peak < prof.total_bytes_made());
    // The plan knows where each link dies: right at the next one.
    const Plan& plan = ex.plan();
    for (int k = 0; k + 1 < kLinks; ++k) {
      const int node = g.find("d" + std::to_string(k));
      const int next_pos = static_cast<int>(
          std::find(plan.order.begin(), plan.order.end(), g.find("d" + std::to_string(k + 1))) -
          plan.order.begin());
      QCOMPARE(plan.nodes[node].last_use[0], next_pos);
    }
  }

  void tf1_while_loop_with_tensor_array_and_list() {
    const graph::Graph g = sum_loop(10);
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    QVERIFY(ex.plan().dynamic);
    const auto start = e.memory().total;
    const auto o = ex.run({});
    QCOMPARE(test::int_values(o[0]), (std::vector<std::int32_t>{45}));
    QCOMPARE(test::int_values(o[1]), (std::vector<std::int32_t>{10}));
    QCOMPARE(test::int_values(o[2]),
             (std::vector<std::int32_t>{0, 1, 4, 9, 16, 25, 36, 49, 64, 81}));
    QCOMPARE(o[2].shape, (Shape{10}));
    QCOMPARE(test::int_values(o[3]), (std::vector<std::int32_t>{10}));
    QCOMPARE(test::int_values(o[4]),
             (std::vector<std::int32_t>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18}));
    const auto after = e.memory().total;
    QCOMPARE(after.num_tensors, start.num_tensors);
    QCOMPARE(after.num_bytes, start.num_bytes);

    // A loop that never enters its body.
    const graph::Graph g0 = sum_loop(0);
    Executor ex0(e, g0);
    const std::vector<std::string> some{"sum", "i", "size"};
    const auto o0 = ex0.run({}, some);
    QCOMPARE(test::int_values(o0[0]), (std::vector<std::int32_t>{0}));
    QCOMPARE(test::int_values(o0[1]), (std::vector<std::int32_t>{0}));
    QCOMPARE(test::int_values(o0[2]), (std::vector<std::int32_t>{0}));
  }

  // Issue #25 item 2: every iteration of a TF1 loop used to keep its context and node outputs
  // (about 2 KB each) until the run ended. Now what a run holds at once does not depend on the
  // number of iterations.
  void tf1_loop_holds_the_same_whatever_its_iterations() {
    Engine e;
    test::add_test_kernels(e);
    RunStats few, many;
    for (int limit : {10, 1000}) {
      const graph::Graph g = sum_loop(limit);
      Executor ex(e, g);
      const std::vector<std::string> outs{"sum", "i", "twice"};
      const auto o = ex.run({}, outs);
      QCOMPARE(test::int_values(o[0]), (std::vector<std::int32_t>{limit * (limit - 1) / 2}));
      QCOMPARE(test::int_values(o[1]), (std::vector<std::int32_t>{limit}));
      QCOMPARE(test::int_values(o[2])[static_cast<std::size_t>(limit - 1)], 2 * (limit - 1));
      (limit == 10 ? few : many) = ex.last_run_stats();
    }
    QVERIFY(few.peak_slots > 0);
    QCOMPARE(many.peak_contexts, few.peak_contexts);
    QCOMPARE(many.peak_slots, few.peak_slots);
  }

  // A TF1 loop whose LoopCond is always true stops at the loop iteration limit (the one TF2
  // While has), with a message that names the loop and the limit.
  void tf1_loop_that_never_ends_stops_at_the_limit() {
    GraphBuilder b;
    auto i0 = b.int_const("i0", 0);
    auto one = b.int_const("one", 1);
    auto yes = b.add("yes", "T_Less", {i0, one});
    const auto F = frame("forever");
    auto ei = b.add("enter_i", "Enter", {i0}, {{"frame_name", F}, {"is_constant", false}});
    auto eyes = b.add("enter_yes", "Enter", {yes}, {{"frame_name", F}, {"is_constant", true}});
    auto eone = b.add("enter_one", "Enter", {one}, {{"frame_name", F}, {"is_constant", true}});
    auto m = b.add("merge_i", "Merge", {ei, ei});
    auto cond = b.add("cond", "LoopCond", {eyes});
    auto sw = b.add("switch_i", "Switch", {m, cond});
    auto body = b.add("body_i", "Identity", {out(sw, 1)});
    auto add = b.add("add_i", "T_Add", {body, eone});
    auto ni = b.add("next_i", "NextIteration", {add});
    b.set_input(m, 1, ni);
    b.output("i", b.add("exit_i", "Exit", {out(sw, 0)}));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    e.flags().set("loop_iteration_limit", "5000");
    Executor ex(e, g);
    const auto start = e.memory().total;
    try {
      ex.run({});
      QFAIL("a loop that never ends ran to completion");
    } catch (const ModelError& err) {
      const std::string what = err.what();
      QVERIFY2(what.find("loop 'forever'") != std::string::npos, what.c_str());
      QVERIFY2(what.find("5000 iterations") != std::string::npos, what.c_str());
      QVERIFY2(what.find("loop_iteration_limit") != std::string::npos, what.c_str());
    }
    QCOMPARE(e.memory().total.num_tensors, start.num_tensors);
  }

  // Issue #25 item 10: a function whose body calls itself is named as recursion (it used to be
  // "the model's library does not define" it); a body calling another library function runs.
  void function_library_recursion_is_named() {
    auto cond = std::make_shared<graph::Graph>();
    {
      GraphBuilder b;
      auto i = b.placeholder("i", DType::Int32, {});
      b.output("r", b.add("lt", "T_Less", {i, b.int_const("three", 3)}));
      *cond = b.take();
    }
    // inc(i) = i + 1 through a While of its own whose body is `inner`.
    auto inner = std::make_shared<graph::Graph>();
    {
      GraphBuilder b;
      auto i = b.placeholder("i", DType::Int32, {});
      b.output("i", b.add("inc", "T_Add", {i, b.int_const("one", 1)}));
      *inner = b.take();
    }
    auto body_calling = [&](const std::string& callee) {
      auto g = std::make_shared<graph::Graph>();
      GraphBuilder b;
      auto i = b.placeholder("i", DType::Int32, {});
      auto w = b.add("nested", "StatelessWhile", {i},
                     {{"cond", graph::FuncAttr{"cond_fn"}}, {"body", graph::FuncAttr{callee}}});
      b.output("i", b.add("inc", "T_Add", {w, b.int_const("one", 1)}));
      *g = b.take();
      return g;
    };
    auto top = [&](std::shared_ptr<graph::Graph> body) {
      GraphBuilder b;
      auto i0 = b.placeholder("start", DType::Int32, {});
      auto w = b.add("while", "StatelessWhile", {i0},
                     {{"cond", graph::FuncAttr{"cond_fn"}}, {"body", graph::FuncAttr{"body_fn"}}});
      b.output("i", w);
      b.g.functions = {{"cond_fn", cond}, {"body_fn", body}, {"inner_fn", inner}};
      return b.take();
    };
    Engine e;
    test::add_test_kernels(e);
    // body_fn -> inner_fn: a library function called from a function body runs.
    const graph::Graph nested = top(body_calling("inner_fn"));
    Executor ex(e, nested);
    const auto o = ex.run({{"start", test::ints({}, {0})}});
    QCOMPARE(test::int_values(o[0]), (std::vector<std::int32_t>{4}));
    // body_fn -> body_fn.
    const graph::Graph recursive = top(body_calling("body_fn"));
    try {
      Executor bad(e, recursive);
      QFAIL("a recursive function library was accepted");
    } catch (const ModelError& err) {
      const std::string what = err.what();
      QVERIFY2(what.find("recursive") != std::string::npos, what.c_str());
      QVERIFY2(what.find("'body_fn'") != std::string::npos, what.c_str());
      QVERIFY2(what.find("does not define") == std::string::npos, what.c_str());
    }
  }

  // Issue #25 item 10: Switch takes a bool predicate; a float one is named as the problem, not
  // left to surface as "output ... was not computed".
  void switch_needs_a_bool_predicate() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {2});
    auto p = b.placeholder("p", DType::Float32, {});
    auto sw = b.add("switch", "Switch", {x, p});
    b.output("y", b.add("then", "T_Double", {out(sw, 1)}));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    try {
      ex.run({{"x", test::floats({2}, {1, 2})}, {"p", test::floats({}, {0.5f})}});
      QFAIL("a float predicate was taken");
    } catch (const ModelError& err) {
      const std::string what = err.what();
      QVERIFY2(what.find("'switch'") != std::string::npos, what.c_str());
      QVERIFY2(what.find("bool predicate") != std::string::npos, what.c_str());
    }
  }

  // Issue #25 item 8: a node whose output (or TensorList) could never fit is refused before the
  // allocation, naming the node, the shape and the bytes (BroadcastTo used to say "internal
  // error: HostTensor: invalid shape" with no node; TensorListReserve ended in bad_alloc).
  void outputs_larger_than_the_machine_name_the_node() {
    auto expect = [](const graph::Graph& g, std::vector<std::string> parts) {
      Engine e;
      Executor ex(e, g);
      const auto start = e.memory().total;
      try {
        ex.run({});
        QFAIL("an impossible allocation succeeded");
      } catch (const ModelError& err) {
        const std::string what = err.what();
        for (const auto& part : parts)
          QVERIFY2(what.find(part) != std::string::npos, (part + " not in: " + what).c_str());
      }
      QCOMPARE(e.memory().total.num_tensors, start.num_tensors);
    };
    {
      GraphBuilder b;
      auto x = b.scalar_const("x", 1.f);
      auto shape = b.add("shape", "Const");
      b.g.nodes[shape.node].value = test::ints({3}, {2147483647, 2147483647, 4});
      b.output("y", b.add("big", "BroadcastTo", {x, shape}));
      expect(b.take(),
             {"node 'big' (BroadcastTo)", "[2147483647,2147483647,4]", "bytes", "out of memory"});
    }
    {
      GraphBuilder b;
      auto shape = b.add("elem_shape", "Const");
      b.g.nodes[shape.node].value = test::ints({0}, {});
      auto tl = b.add("tl", "TensorListReserve", {shape, b.int_const("n", 2147483647)},
                      {{"element_dtype", graph::TypeAttr{"DT_FLOAT"}}});
      b.output("n", b.add("len", "TensorListLength", {tl}));
      expect(b.take(), {"node 'tl' (TensorListReserve)", "2147483647 elements", "bytes"});
    }
    {
      GraphBuilder b;
      auto dims = b.add("dims", "Const");
      b.g.nodes[dims.node].value = test::ints({2}, {1 << 30, 1 << 30});
      b.output("y", b.add("fill", "Fill", {dims, b.scalar_const("v", 1.f)}));
      expect(b.take(),
             {"node 'fill' (Fill)", "[1073741824,1073741824]", "4611686018427387904 bytes"});
    }
  }

  void tf1_cond_takes_one_branch() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {2});
    auto p = b.placeholder("p", DType::Bool, {});
    auto sw = b.add("switch", "Switch", {x, p});
    auto f = b.add("else", "T_Relu", {out(sw, 0)});
    auto t = b.add("then", "T_Double", {out(sw, 1)});
    auto m = b.add("merge", "Merge", {f, t});
    b.output("y", m);
    b.output("branch", out(m, 1));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    int kernels = 0;
    struct Count : Observer {
      int* n;
      explicit Count(int* c) : n(c) {}
      void after_kernel(KernelEvent& ev) override {
        if (ev.backend == "cpu") ++*n;
      }
    } count(&kernels);
    e.add_observer(&count);
    HostTensor yes = HostTensor::zeros(DType::Bool, {});
    yes.mutable_values<std::uint8_t>()[0] = 1;
    auto o = ex.run({{"x", test::floats({2}, {-1, 3})}, {"p", yes}});
    QCOMPARE(test::float_values(o[0]), (std::vector<float>{-2, 6}));
    QCOMPARE(test::int_values(o[1]), (std::vector<std::int32_t>{1}));
    QCOMPARE(kernels, 1);  // the untaken branch did not run
    o = ex.run({{"x", test::floats({2}, {-1, 3})}, {"p", HostTensor::zeros(DType::Bool, {})}});
    QCOMPARE(test::float_values(o[0]), (std::vector<float>{0, 3}));
    QCOMPARE(test::int_values(o[1]), (std::vector<std::int32_t>{0}));
    e.remove_observer(&count);
    // An output on the untaken branch cannot be produced.
    const std::vector<std::string> dead{"else"};
    QVERIFY_THROWS_EXCEPTION(ModelError,
                             ex.run({{"x", test::floats({2}, {-1, 3})}, {"p", yes}}, dead));
  }

  void control_edges_from_a_branch_pivot() {
    // As TF2 conds lower: the branch's constants hang off a pivot (an Identity of the predicate's
    // Switch) by control edges only, so nothing reads the pivot's value; the constant must still
    // wait for the pivot, and run only on the taken side.
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {2});
    auto p = b.placeholder("p", DType::Bool, {});
    auto sp = b.add("switch_pred", "Switch", {p, p});
    auto pivot_t = b.add("pivot_t", "Identity", {out(sp, 1)});
    auto pivot_f = b.add("pivot_f", "Identity", {out(sp, 0)});
    auto sx = b.add("switch_x", "Switch", {x, p});
    auto ten = b.scalar_const("ten", 10);
    b.control(ten, pivot_t);
    auto minus = b.scalar_const("minus", -1);
    b.control(minus, pivot_f);
    auto t = b.add("then", "T_Add", {out(sx, 1), ten});
    auto f = b.add("else", "T_Mul", {out(sx, 0), minus});
    auto m = b.add("merge", "Merge", {f, t});
    b.output("y", m);
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    HostTensor yes = HostTensor::zeros(DType::Bool, {});
    yes.mutable_values<std::uint8_t>()[0] = 1;
    auto o = ex.run({{"x", test::floats({2}, {1, 2})}, {"p", yes}});
    QCOMPARE(test::float_values(o[0]), (std::vector<float>{11, 12}));
    o = ex.run({{"x", test::floats({2}, {1, 2})}, {"p", HostTensor::zeros(DType::Bool, {})}});
    QCOMPARE(test::float_values(o[0]), (std::vector<float>{-1, -2}));
    QCOMPARE(e.memory().total.num_tensors, std::size_t{2});  // the two weights
  }

  void tf2_while_and_if_call_functions() {
    // cond(i, acc): i < 5; body(i, acc): (i + 1, acc * 2)
    auto cond = std::make_shared<graph::Graph>();
    {
      GraphBuilder b;
      auto i = b.placeholder("i", DType::Int32, {});
      (void)b.placeholder("acc", DType::Float32, {});
      auto five = b.int_const("five", 5);
      b.output("r", b.add("lt", "T_Less", {i, five}));
      *cond = b.take();
    }
    auto body = std::make_shared<graph::Graph>();
    {
      GraphBuilder b;
      auto i = b.placeholder("i", DType::Int32, {});
      auto acc = b.placeholder("acc", DType::Float32, {});
      auto one = b.int_const("one", 1);
      b.output("i", b.add("inc", "T_Add", {i, one}));
      b.output("acc", b.add("dbl", "T_Double", {acc}));
      *body = b.take();
    }
    auto then_g = std::make_shared<graph::Graph>();
    {
      GraphBuilder b;
      auto v = b.placeholder("v", DType::Float32, {});
      b.output("r", b.add("d", "T_Double", {v}));
      *then_g = b.take();
    }
    auto else_g = std::make_shared<graph::Graph>();
    {
      GraphBuilder b;
      auto v = b.placeholder("v", DType::Float32, {});
      b.output("r", b.add("id", "Identity", {v}));
      *else_g = b.take();
    }
    GraphBuilder b;
    auto i0 = b.placeholder("start", DType::Int32, {});
    auto acc0 = b.scalar_const("acc0", 1.5f);
    auto w = b.add("while", "StatelessWhile", {i0, acc0},
                   {{"cond", graph::FuncAttr{"cond_fn"}}, {"body", graph::FuncAttr{"body_fn"}}});
    auto p = b.add("big", "T_Less", {b.int_const("three", 3), out(w, 0)});
    auto f = b.add(
        "if", "StatelessIf", {p, out(w, 1)},
        {{"then_branch", graph::FuncAttr{"then_fn"}}, {"else_branch", graph::FuncAttr{"else_fn"}}});
    b.output("i", out(w, 0));
    b.output("acc", out(w, 1));
    b.output("if", f);
    b.g.functions = {
        {"cond_fn", cond}, {"body_fn", body}, {"then_fn", then_g}, {"else_fn", else_g}};
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    const auto start = e.memory().total;
    auto o = ex.run({{"start", test::ints({}, {2})}});
    QCOMPARE(test::int_values(o[0]), (std::vector<std::int32_t>{5}));
    QCOMPARE(test::float_values(o[1]), (std::vector<float>{12}));  // 1.5 * 2^3
    QCOMPARE(test::float_values(o[2]), (std::vector<float>{24}));  // 5 > 3: then doubles
    o = ex.run({{"start", test::ints({}, {7})}});
    QCOMPARE(test::int_values(o[0]), (std::vector<std::int32_t>{7}));
    QCOMPARE(test::float_values(o[1]), (std::vector<float>{1.5f}));  // no iteration
    QCOMPARE(test::float_values(o[2]), (std::vector<float>{3}));     // 7 > 3: then doubles
    QCOMPARE(e.memory().total.num_tensors, start.num_tensors);
    QCOMPARE(e.memory().total.num_bytes, start.num_bytes);

    // A missing function body is a model error at load.
    graph::Graph broken = g;
    broken.functions.erase("body_fn");
    QVERIFY_THROWS_EXCEPTION(ModelError, Executor(e, broken));
  }

  void input_validation() {
    GraphBuilder b;
    auto x = b.placeholder("image", DType::Float32, {1, -1, 3});
    auto k = b.placeholder("k", DType::Int32, {});
    b.output("y", b.add("y", "T_Double", {x}));
    b.output("k", b.add("kk", "Identity", {k}));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    const HostTensor good = HostTensor::zeros(DType::Float32, {1, 5, 3});
    const HostTensor kval = test::ints({}, {3});
    auto expect_error = [&](const NamedTensors& in, std::vector<std::string> parts) {
      try {
        (void)ex.run(in);
        QFAIL("bad input was accepted");
      } catch (const ModelError& err) {
        const std::string msg = err.what();
        for (const auto& p : parts)
          QVERIFY2(msg.find(p) != std::string::npos, qPrintable(QString::fromStdString(msg)));
      }
    };
    QCOMPARE(ex.run({{"image", good}, {"k", kval}}).size(), std::size_t{2});
    expect_error({{"image", good}}, {"missing input 'k'", "int32 []"});
    expect_error({{"image", good}, {"k", kval}, {"extra", kval}},
                 {"unknown input 'extra'", "'image'", "'k'"});
    expect_error({{"image", HostTensor::zeros(DType::Int32, {1, 5, 3})}, {"k", kval}},
                 {"input 'image'", "float32 [1,?,3]", "int32 [1,5,3]", "dtype"});
    expect_error({{"image", HostTensor::zeros(DType::Float32, {1, 5, 4})}, {"k", kval}},
                 {"input 'image'", "float32 [1,?,3]", "float32 [1,5,4]", "shape"});
    expect_error({{"image", HostTensor::zeros(DType::Float32, {5, 3})}, {"k", kval}},
                 {"input 'image'", "[5,3]"});
    HostTensor nan = good;
    nan.buffer = Buffer::allocate(good.byte_size());
    nan.mutable_values<float>()[7] = std::nanf("");
    expect_error({{"image", nan}, {"k", kval}}, {"input 'image'", "NaN", "element 7"});
    e.flags().set("prod", "true");  // prod skips the NaN scan
    const auto o = ex.run({{"image", nan}, {"k", kval}});
    QVERIFY(std::isnan(o[0].values<float>()[7]));
    QCOMPARE(e.memory().total.num_tensors, std::size_t{0});
  }

  void observers_see_and_may_replace_outputs() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {2});
    auto d = b.add("d", "T_Double", {x});
    b.output("y", b.add("r", "T_Relu", {d}));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    Executor ex(e, g);
    // Negates the output of "d" before "r" sees it.
    struct Negate : Observer {
      std::vector<std::string> seen;
      void before_kernel(const KernelEvent& ev) override {
        seen.push_back("before " + ev.node.name);
      }
      void after_kernel(KernelEvent& ev) override {
        seen.push_back("after " + ev.node.name);
        if (ev.node.name != "d") return;
        HostTensor h = ev.engine.read(ev.outputs[0]);
        HostTensor neg = HostTensor::zeros(h.dtype, h.shape);
        for (std::int64_t i = 0; i < h.num_elements(); ++i)
          neg.mutable_values<float>()[i] = -h.values<float>()[i];
        Tensor old = ev.outputs[0];
        ev.outputs[0] = ev.engine.make_tensor(neg, "negate");
        old.dispose();
      }
    } negate;
    e.add_observer(&negate);
    const auto o = ex.run({{"x", test::floats({2}, {1, -2})}});
    e.remove_observer(&negate);
    QCOMPARE(test::float_values(o[0]), (std::vector<float>{0, 4}));
    QCOMPARE(negate.seen, (std::vector<std::string>{"before d", "after d", "before r", "after r"}));
    QCOMPARE(e.memory().total.num_tensors, std::size_t{0});
  }

  void debug_flag_logs_each_kernel() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {3});
    b.output("y", b.add("twice", "T_Double", {x}));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    std::vector<std::string> lines;
    e.set_log_sink([&](std::string_view l) { lines.emplace_back(l); });
    Executor ex(e, g);
    (void)ex.run({{"x", test::floats({3}, {1, 2, 3})}});
    QVERIFY(lines.empty());
    e.flags().set("debug", "true");
    (void)ex.run({{"x", test::floats({3}, {1, 2, 3})}});
    QCOMPARE(lines.size(), std::size_t{1});
    for (const char* part : {"T_Double", "'twice'", "cpu", "float32[3]", "ms", "12 bytes"})
      QVERIFY2(lines[0].find(part) != std::string::npos, lines[0].c_str());
  }

  // A kernel that fails on a backend other than cpu: cpu takes the node when the backend cannot
  // (BackendLimit) or broke (any other error of its own); a ModelError says the node is wrong,
  // which cpu would say as well, so it ends the run with no fallback warning.
  void kernel_errors_fall_back_only_when_the_backend_is_at_fault() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {2});
    b.output("y", b.add("d1", "T_Double", {x}));
    const graph::Graph g = b.take();
    struct Case {
      const char* what;
      std::function<void()> fault;
      bool falls_back;
    };
    const std::vector<Case> cases{
        {"a backend limit", [] { throw BackendLimit("fake cannot take this shape"); }, true},
        {"a device error", [] { throw std::runtime_error("fake device error"); }, true},
        {"a model error", [] { throw ModelError("node 'd1' (T_Double): operands are wrong"); },
         false},
    };
    for (const Case& c : cases) {
      Engine e;
      test::add_test_kernels(e);
      auto owned = std::make_unique<test::FakeBackend>("fake", 250, true);
      owned->fault = c.fault;
      e.add_backend(std::move(owned));
      std::vector<std::string> lines;
      e.set_log_sink([&](std::string_view l) { lines.emplace_back(l); });
      e.set_backend("fake");
      Executor ex(e, g);
      if (c.falls_back) {
        const auto o = ex.run({{"x", test::floats({2}, {-1, 2})}});
        QCOMPARE(test::float_values(o[0]), (std::vector<float>{-2, 4}));
        QVERIFY2(lines.size() == 1 &&
                     lines[0].find("failed on backend 'fake'") != std::string::npos &&
                     lines[0].find("it runs on cpu") != std::string::npos,
                 c.what);
      } else {
        try {
          (void)ex.run({{"x", test::floats({2}, {-1, 2})}});
          QFAIL((std::string(c.what) + " did not end the run").c_str());
        } catch (const BackendLimit&) {
          QFAIL((std::string(c.what) + " came back as a backend limit").c_str());
        } catch (const ModelError& err) {
          QVERIFY2(std::string(err.what()).find("operands are wrong") != std::string::npos,
                   err.what());
        }
        QVERIFY2(lines.empty(), c.what);
      }
    }
  }

  // A profiler must see a node's own work, also on a backend whose run() only queues it: the
  // executor waits for the backend before it stops the node's clock, and only when an observer
  // reads the times.
  void node_times_include_queued_work_when_an_observer_reads_them() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {2});
    b.output("y", b.add("d2", "T_Double", {b.add("d1", "T_Double", {x})}));
    const graph::Graph g = b.take();
    struct Times final : Observer {
      bool timing = true;
      std::vector<double> ms;
      bool needs_every_output() const override { return false; }
      bool times_kernels() const override { return timing; }
      void after_kernel(KernelEvent& e) override { ms.push_back(e.ms); }
    };
    for (const bool timing : {true, false}) {
      Engine e;
      test::add_test_kernels(e);
      auto owned = std::make_unique<test::FakeBackend>("fake", 250, true);
      test::FakeBackend& fake = *owned;
      fake.work = [] { std::this_thread::sleep_for(std::chrono::milliseconds(30)); };
      e.add_backend(std::move(owned));
      e.set_backend("fake");
      Times times;
      times.timing = timing;
      e.add_observer(&times);
      Executor ex(e, g);
      const auto o = ex.run({{"x", test::floats({2}, {-1, 2})}});
      e.remove_observer(&times);
      QCOMPARE(test::float_values(o[0]), (std::vector<float>{-4, 8}));
      QCOMPARE(fake.runs, 2);
      QCOMPARE(times.ms.size(), std::size_t{2});
      if (timing) {
        QCOMPARE(fake.finishes, 2);
        for (double ms : times.ms) QVERIFY2(ms >= 29.0, std::to_string(ms).c_str());
      } else {
        QCOMPARE(fake.finishes, 0);
      }
    }
    // The Profiler is such an observer.
    Engine e;
    QVERIFY(Profiler(e).times_kernels());
  }

  void fallback_to_cpu_and_unsupported_ops() {
    GraphBuilder b;
    auto x = b.placeholder("x", DType::Float32, {2});
    auto d1 = b.add("d1", "T_Double", {x});
    auto r = b.add("r", "T_Relu", {d1});
    b.output("y", b.add("d2", "T_Double", {r}));
    const graph::Graph g = b.take();
    Engine e;
    test::add_test_kernels(e);
    auto owned = std::make_unique<test::FakeBackend>("fake", 250, true);
    test::FakeBackend& fake = *owned;
    e.add_backend(std::move(owned));
    std::vector<std::string> lines;
    e.set_log_sink([&](std::string_view l) { lines.emplace_back(l); });
    Executor ex(e, g);
    e.set_backend("auto");
    QCOMPARE(e.backend().name(), std::string_view("fake"));
    const Plan& plan = ex.plan();
    QCOMPARE(plan.fallbacks.size(), std::size_t{1});
    QCOMPARE(plan.fallbacks[0].node, std::string("r"));
    QCOMPARE(plan.segments.size(), std::size_t{3});  // fake, cpu, fake
    QCOMPARE(plan.sync_points, 3);                   // x up, d1 down, r up
    const auto o = ex.run({{"x", test::floats({2}, {-1, 2})}});
    QCOMPARE(test::float_values(o[0]), (std::vector<float>{0, 8}));
    QCOMPARE(fake.runs, 2);
    QCOMPARE(lines.size(), std::size_t{1});
    QVERIFY(lines[0].find("cannot be handled by backend 'fake'") != std::string::npos);
    QCOMPARE(e.memory().total.num_tensors, std::size_t{0});

    // Back on cpu: a new plan, no fallbacks.
    e.set_backend("cpu");
    QVERIFY(ex.plan().fallbacks.empty());

    GraphBuilder u;
    auto ux = u.placeholder("x", DType::Float32, {2});
    u.output("y", u.add("mystery_node", "NoSuchOp", {ux}));
    const graph::Graph ug = u.take();
    Executor uex(e, ug);
    try {
      (void)uex.run({{"x", test::floats({2}, {1, 2})}});
      QFAIL("an op without a kernel ran");
    } catch (const ModelError& err) {
      const std::string msg = err.what();
      QVERIFY2(msg.find("NoSuchOp") != std::string::npos &&
                   msg.find("mystery_node") != std::string::npos,
               err.what());
    }
  }
};

QTEST_APPLESS_MAIN(ExecutorTest)
#include "executor_test.moc"
