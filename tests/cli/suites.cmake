# Command-line tests: tfjsi as a user runs it.
add_executable(info_model_test ${CMAKE_CURRENT_LIST_DIR}/info_model_test.cpp)
target_link_libraries(info_model_test PRIVATE tfjsi_testsupport)
add_dependencies(info_model_test tfjsi)
tfjsi_add_model_tests(info info_model_test ${TFJSI_CORPUS_MODELS} ${TFJSI_LAYERS_MODELS})
tfjsi_add_suite(broken_bundle_test ${CMAKE_CURRENT_LIST_DIR}/broken_bundle_test.cpp)
add_dependencies(broken_bundle_test tfjsi)
tfjsi_add_suite(run_input_test ${CMAKE_CURRENT_LIST_DIR}/run_input_test.cpp)
add_dependencies(run_input_test tfjsi)
# complex64 through tfjsi: '<c8' inputs and outputs, info's dtypes, cpu runs for xnnpack and gl.
tfjsi_add_suite(complex_cli_test ${CMAKE_CURRENT_LIST_DIR}/complex_cli_test.cpp)
add_dependencies(complex_cli_test tfjsi)

# Every corpus and reference layers model on cpu against TF.js's own outputs, one CTest each (under
# the sanitizers the corpus models of TFJSI_RUN_MODELS, see corpus.cmake).
add_executable(golden_run_test ${CMAKE_CURRENT_LIST_DIR}/golden_run_test.cpp)
target_link_libraries(golden_run_test PRIVATE tfjsi_testsupport)
add_dependencies(golden_run_test tfjsi)
foreach(model ${TFJSI_RUN_MODELS} ${TFJSI_LAYERS_MODELS})
  add_test(NAME golden.cpu.${model} COMMAND golden_run_test cpu ${model})
  set_tests_properties(golden.cpu.${model} PROPERTIES ENVIRONMENT "${TFJSI_TEST_ENV}")
endforeach()

# Hostile inputs, round two (issue #25): escapes in names, symlinks in --out, FIFO inputs, huge
# inputs, non-finite references, unknown dtypes, duplicate keys, .npy trailing bytes.
tfjsi_add_suite(hostile_cli_test ${CMAKE_CURRENT_LIST_DIR}/hostile_cli_test.cpp)
add_dependencies(hostile_cli_test tfjsi)

# tfjsi quantize (issue #23): the converter's formulas recomputed, --keep-float, 4 MiB shards, bad
# input, --advise's recommendation written and measured; and the quantized bundles run in real
# TF.js 4.22 (tests/reference's node_modules) against our cpu outputs on the same bundle.
tfjsi_add_suite(quantize_test ${CMAKE_CURRENT_LIST_DIR}/quantize_test.cpp)
add_dependencies(quantize_test tfjsi)
tfjsi_add_suite(quantize_tfjs_test ${CMAKE_CURRENT_LIST_DIR}/quantize_tfjs_test.cpp)
add_dependencies(quantize_tfjs_test tfjsi)

# tfjsi reduce (issue #23): each condition on a real model, the reduced bundle re-run by tfjsi
# and loaded and run by real TF.js 4.22 (its repro.js); exit 1 when the condition never holds.
tfjsi_add_suite(reduce_test ${CMAKE_CURRENT_LIST_DIR}/reduce_test.cpp)
add_dependencies(reduce_test tfjsi)
