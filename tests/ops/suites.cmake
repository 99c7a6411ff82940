# engine/ops: what an op means, independent of backends (ops::Window against TF.js's conv_util).
tfjsi_add_suite(ops_window_test ${CMAKE_CURRENT_LIST_DIR}/window_test.cpp)
set_target_properties(ops_window_test PROPERTIES AUTOMOC ON)
# ops/attr.h: the one family of attribute readers and their contracts.
tfjsi_add_suite(ops_attr_test ${CMAKE_CURRENT_LIST_DIR}/attr_test.cpp)
set_target_properties(ops_attr_test PROPERTIES AUTOMOC ON)
# ops/op_def.h: every op a backend runs is known to the op layer once, with its family.
tfjsi_add_suite(ops_list_test ${CMAKE_CURRENT_LIST_DIR}/op_list_test.cpp)
set_target_properties(ops_list_test PROPERTIES AUTOMOC ON)
