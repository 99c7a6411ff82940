# engine/graph: attribute decoding, GraphDef import, topological order, shape inference, and
# build_graph on every corpus model.
tfjsi_add_suite(graph_attr ${CMAKE_CURRENT_LIST_DIR}/attr_decode_test.cpp)
tfjsi_add_suite(graph_import ${CMAKE_CURRENT_LIST_DIR}/import_test.cpp)
tfjsi_add_suite(graph_shapes ${CMAKE_CURRENT_LIST_DIR}/shape_test.cpp)
# Transposes moved past layout-blind ops: exactness on the cpu kernels, nanodet on cpu and xnnpack.
tfjsi_add_suite(graph_transpose_sinking ${CMAKE_CURRENT_LIST_DIR}/transpose_sinking_test.cpp)
target_link_libraries(graph_transpose_sinking PRIVATE tfjsi_runtime_testutil)

# One CTest per corpus model (the list is fixed in corpus.cmake).
add_executable(graph_corpus ${CMAKE_CURRENT_LIST_DIR}/corpus_test.cpp)
target_link_libraries(graph_corpus PRIVATE tfjsi_testsupport)
tfjsi_add_model_tests(graph.build graph_corpus ${TFJSI_CORPUS_MODELS})

set_target_properties(graph_attr graph_import graph_shapes graph_transpose_sinking graph_corpus
                      PROPERTIES AUTOMOC ON)
