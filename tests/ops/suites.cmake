# engine/ops: what an op means, independent of backends (ops::Window against TF.js's conv_util).
tfjsi_add_suite(ops_window_test ${CMAKE_CURRENT_LIST_DIR}/window_test.cpp)
set_target_properties(ops_window_test PROPERTIES AUTOMOC ON)
# ops/attr.h: the one family of attribute readers and their contracts.
tfjsi_add_suite(ops_attr_test ${CMAKE_CURRENT_LIST_DIR}/attr_test.cpp)
set_target_properties(ops_attr_test PROPERTIES AUTOMOC ON)
# ops/op_def.h: every op a backend runs is known to the op layer once, with its family.
tfjsi_add_suite(ops_list_test ${CMAKE_CURRENT_LIST_DIR}/op_list_test.cpp)
set_target_properties(ops_list_test PROPERTIES AUTOMOC ON)
# ops/fusion.h: fused nodes' epilogue, read once for every backend, and the fusion rules.
tfjsi_add_suite(ops_fusion_test ${CMAKE_CURRENT_LIST_DIR}/fusion_test.cpp)
set_target_properties(ops_fusion_test PROPERTIES AUTOMOC ON)

# The op conformance suite (issue #26): every case of tests/ops/gen (a graph around one op of
# TF.js's converter, with real TF.js's outputs; tests/ops/make-ops.sh makes them into
# TFJSI_OPS_DIR), all cases of one backend in one process, against tests/ops/unsupported.txt.
add_executable(ops_conformance_test ${CMAKE_CURRENT_LIST_DIR}/conformance_test.cpp)
target_link_libraries(ops_conformance_test PRIVATE tfjsi_testsupport)
set_target_properties(ops_conformance_test PROPERTIES AUTOMOC ON)
foreach(backend cpu xnnpack gl)
  add_test(NAME ops.conformance.${backend} COMMAND ops_conformance_test ${backend})
  set_tests_properties(ops.conformance.${backend} PROPERTIES ENVIRONMENT "${TFJSI_TEST_ENV}")
endforeach()

# engine/ops/converter_ops.inc is what tests/reference's node_modules says the converter maps;
# docs/ops.md is what `tfjsi env --ops --json` says now.
add_test(NAME ops.converter_list_current
         COMMAND node ${CMAKE_CURRENT_LIST_DIR}/gen/make-op-list.mjs --check)
add_test(NAME ops.doc_current
         COMMAND Python3::Interpreter ${PROJECT_SOURCE_DIR}/scripts/make-ops-doc.py
                 --check $<TARGET_FILE:tfjsi>)
set_tests_properties(ops.doc_current PROPERTIES ENVIRONMENT "${TFJSI_TEST_ENV}")
