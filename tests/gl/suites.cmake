# gl backend suites. They need a GL 4.3 driver (Mesa llvmpipe on CI) and use the headless EGL path
# even when run under xvfb-run.
tfjsi_add_suite(gl_context_test gl/gl_context_test.cpp)
tfjsi_add_suite(gl_kernels_test gl/gl_kernels_test.cpp)
tfjsi_add_suite(gl_program_cache_test gl/gl_program_cache_test.cpp)
tfjsi_add_suite(gl_dispatch_test gl/gl_dispatch_test.cpp)
tfjsi_add_suite(gl_fault_test gl/gl_fault_test.cpp)
tfjsi_add_suite(gl_compile_ahead_test gl/gl_compile_ahead_test.cpp)
tfjsi_add_suite(gl_cli_test gl/gl_cli_test.cpp)

# Every corpus and reference layers model on gl (fp32) against TF.js's own outputs, one CTest each
# (golden_run_test is defined by tests/cli/suites.cmake, included before this file; under the
# sanitizers the corpus models of TFJSI_RUN_MODELS, see corpus.cmake).
foreach(model ${TFJSI_RUN_MODELS} ${TFJSI_LAYERS_MODELS})
  add_test(NAME golden.gl.${model} COMMAND golden_run_test gl ${model})
  set_tests_properties(golden.gl.${model} PROPERTIES ENVIRONMENT "${TFJSI_TEST_ENV}")
endforeach()
# The exact sums (flag gl.exact_sums: doubles where fma() rounds twice) under DESIGN.md's tolerance
# alone, on the model whose segmentation output the fp32 sums take past it and two others.
foreach(model blazepose-lite movenet-lightning selfie)
  if(model IN_LIST TFJSI_RUN_MODELS)
    add_test(NAME golden.gl-exact.${model} COMMAND golden_run_test gl-exact ${model})
    set_tests_properties(golden.gl-exact.${model} PROPERTIES ENVIRONMENT "${TFJSI_TEST_ENV}")
  endif()
endforeach()
tfjsi_add_suite(gl_model_cache_test gl/gl_model_cache_test.cpp)
tfjsi_add_suite(gl_fusion_test gl/gl_fusion_test.cpp)
target_link_libraries(gl_fusion_test PRIVATE tfjsi_runtime_testutil)

# gl kernels' own limits (window sizes, loop bounds) keep a node on cpu (issue #25).
tfjsi_add_suite(gl_limits_test gl/gl_limits_test.cpp)
target_link_libraries(gl_limits_test PRIVATE tfjsi_runtime_testutil)

# Emulated fp16 storage is bit for bit native RGBA16F (the rounding itself, then whole models
# with the inputs TF.js was fed), and a live fp32 -> fp16 -> fp32 switch builds nothing.
add_executable(gl_fp16_storage_test ${CMAKE_CURRENT_LIST_DIR}/gl_fp16_storage_test.cpp)
target_link_libraries(gl_fp16_storage_test PRIVATE tfjsi_testsupport)
tfjsi_add_model_tests(gl.fp16_storage gl_fp16_storage_test rounding movenet-lightning blazeface
                      selfie emotion iris fp16_overflow fp16_underflow fp16_safe seq_cnn)
