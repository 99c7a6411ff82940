# Reliability under time and faults (issue #8). The short soak: `tfjsi memcheck` switching backend
# on every run, 60 runs per model: flat tensors, bytes, GL objects and heap in use after warm-up,
# and flat resident memory without gl (bench/soak.py runs the 1000-run version). Label "soak":
# `ctest -L soak`.
add_executable(soak_test ${CMAKE_CURRENT_LIST_DIR}/soak_test.cpp)
target_link_libraries(soak_test PRIVATE tfjsi_testsupport)
add_dependencies(soak_test tfjsi)
foreach(model handtrack blazeface iris)
  add_test(NAME soak.${model} COMMAND soak_test ${model} cpu,xnnpack,gl)
  add_test(NAME soak.host.${model} COMMAND soak_test ${model} cpu,xnnpack)
  set_tests_properties(soak.${model} soak.host.${model} PROPERTIES
    ENVIRONMENT "${TFJSI_TEST_ENV}" LABELS soak TIMEOUT 1800)
endforeach()

# Faults forced at run time: a NaN weight with prod off (refused by name, from the API and the
# CLI), and cancel in the middle of a run on every backend and inside TF1 loops.
tfjsi_add_suite(fault_runtime ${CMAKE_CURRENT_LIST_DIR}/fault_test.cpp)
add_dependencies(fault_runtime tfjsi)
set_tests_properties(fault_runtime PROPERTIES TIMEOUT 900)
