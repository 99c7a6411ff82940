# Analysis over the whole corpus: tfjsi compare on cpu, xnnpack and gl with each model's golden
# inputs, one CTest per model (issue #6: no divergence past tolerance anywhere; results and timings
# in bench/results/compare-corpus-*.md). The five models precision.compare already covers with the
# same inputs (blazeface, emotion, iris, handdetect, blazepose-lite) are left out here.
add_executable(compare_golden_test ${CMAKE_CURRENT_LIST_DIR}/compare_golden_test.cpp)
target_link_libraries(compare_golden_test PRIVATE tfjsi_testsupport)
add_dependencies(compare_golden_test tfjsi)
set(compare_golden_models ${TFJSI_RUN_MODELS})
list(REMOVE_ITEM compare_golden_models blazeface emotion iris handdetect blazepose-lite)
tfjsi_add_model_tests(analysis.compare compare_golden_test ${compare_golden_models})

# FLOPs and bytes per node against hand counts on the reference Keras models (issue #23).
tfjsi_add_suite(node_cost_test ${CMAKE_CURRENT_LIST_DIR}/node_cost_test.cpp)
add_dependencies(node_cost_test tfjsi)  # bench --profile's FLOPs per op

# tfjsi quantize's maths on hand-worked weights (issue #23).
tfjsi_add_suite(weight_quantization_test ${CMAKE_CURRENT_LIST_DIR}/weight_quantization_test.cpp)
