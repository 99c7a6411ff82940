// Hash tables as the model's resources: the model initializer fills them once before the first
// run, the graph's HashTable of the same name finds that table, what a run imports stays for the
// next run of the same Executor (as TF.js keeps tables in its GraphModel's ResourceManager), and
// another Executor of the same graph has tables of its own.
#include <QtTest>

#include "backends/cpu/cpu_backend.h"
#include "core/error.h"
#include "runtime/executor.h"
#include "runtime/graph_builder.h"

using namespace tfjsi;
using namespace tfjsi::runtime;
using test::GraphBuilder;

namespace {

using Attrs = std::map<std::string, graph::AttrValue, std::less<>>;

const Attrs kTable{{"key_dtype", graph::TypeAttr{"DT_INT32"}},
                   {"value_dtype", graph::TypeAttr{"DT_FLOAT"}}};

graph::TensorRef int_vector(GraphBuilder& b, std::string name, std::vector<std::int32_t> v) {
  auto r = b.add(std::move(name), "Const");
  const auto n = static_cast<std::int64_t>(v.size());
  b.g.nodes[r.node].value = test::ints({n}, std::move(v));
  return r;
}

// Initializer: table = {3: 0.5, 7: -1, 11: 2.5}, and an op no table needs. Graph: find(table, keys,
// -9); size_after (after re-importing {1: 10, 2: 20}) the table's size.
graph::Graph table_model() {
  GraphBuilder init;
  auto t0 = init.add("table", "HashTableV2", {}, kTable);
  init.add("init", "InitializeTableV2",
           {t0, int_vector(init, "k", {3, 7, 11}), init.vector_const("v", {0.5f, -1, 2.5f})});
  // Initializer work no table needs (an op we have no kernel for) does not stop the model.
  init.add("unrelated", "AssignVariableOp", {init.scalar_const("z", 0)});
  GraphBuilder b;
  auto table = b.add("table", "HashTableV2", {}, kTable);
  auto keys = b.placeholder("keys", DType::Int32, {4});
  b.output("find", b.add("find", "LookupTableFindV2", {table, keys, b.scalar_const("d", -9)}));
  auto reimport = b.add("reimport", "LookupTableImportV2",
                        {table, int_vector(b, "k2", {1, 2}), b.vector_const("v2", {10, 20})});
  auto size = b.add("size_after", "LookupTableSizeV2", {table});
  b.control(size, reimport);
  b.output("size_after", size);
  graph::Graph g = b.take();
  g.initializer = init.take().nodes;
  return g;
}

std::vector<float> find(Executor& ex, std::vector<std::int32_t> keys) {
  NamedTensors in;
  in["keys"] = test::ints({4}, std::move(keys));
  const std::vector<std::string> names{"find"};
  return test::float_values(ex.run(in, names).at(0));
}

}  // namespace

class HashTableTest : public QObject {
  Q_OBJECT

 private slots:
  void initializer_fills_the_table_before_the_first_run() {
    const graph::Graph g = table_model();
    Engine e;
    Executor ex(e, g);
    QCOMPARE(find(ex, {7, 3, 4, 11}), (std::vector<float>{-1, 0.5f, -9, 2.5f}));
    // Runs again without running the initializer again (nothing changed the table).
    QCOMPARE(find(ex, {11, 11, 0, 3}), (std::vector<float>{2.5f, 2.5f, -9, 0.5f}));
  }

  void tables_live_as_long_as_their_executor() {
    const graph::Graph g = table_model();
    Engine e;
    Executor ex(e, g);
    NamedTensors in;
    in["keys"] = test::ints({4}, {0, 0, 0, 0});
    const std::vector<std::string> size{"size_after"};
    QCOMPARE(ex.run(in, size).at(0).values<std::int32_t>()[0], 2);
    // The import replaced the contents for later runs of this executor...
    QCOMPARE(find(ex, {1, 2, 3, 7}), (std::vector<float>{10, 20, -9, -9}));
    // ...and not for another executor of the same graph.
    Executor other(e, g);
    QCOMPARE(find(other, {1, 2, 3, 7}), (std::vector<float>{-9, -9, 0.5f, -1}));
  }

  void wrong_key_dtype_names_the_node_and_table() {
    GraphBuilder b;
    auto table = b.add("table", "HashTableV2", {}, kTable);
    auto keys = b.placeholder("keys", DType::Float32, {2});
    b.output("find", b.add("find", "LookupTableFindV2", {table, keys, b.scalar_const("d", 0)}));
    const graph::Graph g = b.take();
    Engine e;
    Executor ex(e, g);
    NamedTensors in;
    in["keys"] = test::floats({2}, {1, 2});
    try {
      ex.run(in);
      QFAIL("expected a ModelError");
    } catch (const ModelError& err) {
      const std::string what = err.what();
      QVERIFY2(what.find("node 'find' (LookupTableFindV2)") != std::string::npos, err.what());
      QVERIFY2(what.find("keys are float32, the table 'table' holds int32") != std::string::npos,
               err.what());
    }
  }
};

QTEST_APPLESS_MAIN(HashTableTest)
#include "hash_table_test.moc"
