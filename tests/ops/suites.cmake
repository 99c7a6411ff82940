# engine/ops: what an op means, independent of backends (ops::Window against TF.js's conv_util).
tfjsi_add_suite(ops_window_test ${CMAKE_CURRENT_LIST_DIR}/window_test.cpp)
set_target_properties(ops_window_test PROPERTIES AUTOMOC ON)
