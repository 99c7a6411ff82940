# xnnpack backend suites: every native op against the cpu kernels, the operator cache, subgraph
# partitions, and every corpus and reference layers model on xnnpack against TF.js's own outputs
# (golden.xnnpack.MODEL).
tfjsi_add_suite(xnnpack_kernels_test ${CMAKE_CURRENT_LIST_DIR}/xnnpack_kernels_test.cpp)
tfjsi_add_suite(xnnpack_cache_test ${CMAKE_CURRENT_LIST_DIR}/xnnpack_cache_test.cpp)
# Partitions as XNNPACK subgraph runtimes, on a small graph and on selfie (corpus).
tfjsi_add_suite(xnnpack_subgraph_test ${CMAKE_CURRENT_LIST_DIR}/xnnpack_subgraph_test.cpp)
# When the backend shares work with the thread pool: by work, by a first-run trial.
tfjsi_add_suite(xnnpack_threads_test ${CMAKE_CURRENT_LIST_DIR}/xnnpack_threads_test.cpp)
target_link_libraries(xnnpack_cache_test PRIVATE tfjsi_runtime_testutil)
target_link_libraries(xnnpack_subgraph_test PRIVATE tfjsi_runtime_testutil)
target_link_libraries(xnnpack_threads_test PRIVATE tfjsi_runtime_testutil)
set_target_properties(xnnpack_kernels_test xnnpack_cache_test xnnpack_subgraph_test
  xnnpack_threads_test PROPERTIES AUTOMOC ON)

foreach(model ${TFJSI_RUN_MODELS} ${TFJSI_LAYERS_MODELS})
  add_test(NAME golden.xnnpack.${model} COMMAND golden_run_test xnnpack ${model})
  set_tests_properties(golden.xnnpack.${model} PROPERTIES ENVIRONMENT "${TFJSI_TEST_ENV}")
endforeach()
