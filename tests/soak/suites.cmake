# Reliability under time and faults (issue #8). The short soak: `tfjsi memcheck` switching backend
# on every run (cpu, xnnpack, gl), 60 runs per model, flat tensors, bytes, GL objects and resident
# memory after warm-up (bench/soak.py runs the 1000-run version). Label "soak": `ctest -L soak`.
add_executable(soak_test ${CMAKE_CURRENT_LIST_DIR}/soak_test.cpp)
target_link_libraries(soak_test PRIVATE tfjsi_testsupport)
add_dependencies(soak_test tfjsi)
set(TFJSI_SOAK_MODELS handtrack blazeface iris)
tfjsi_add_model_tests(soak soak_test ${TFJSI_SOAK_MODELS})
foreach(model ${TFJSI_SOAK_MODELS})
  set_tests_properties(soak.${model} PROPERTIES LABELS soak TIMEOUT 1800)
endforeach()

# Faults forced at run time: a NaN weight with prod off (refused by name, from the API and the
# CLI), and cancel in the middle of a run on every backend and inside TF1 loops.
tfjsi_add_suite(fault_runtime ${CMAKE_CURRENT_LIST_DIR}/fault_test.cpp)
add_dependencies(fault_runtime tfjsi)
set_tests_properties(fault_runtime PROPERTIES TIMEOUT 900)
