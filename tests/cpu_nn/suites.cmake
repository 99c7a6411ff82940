# cpu neural-network kernels against naive references written from the TF definitions.
tfjsi_add_suite(cpu_nn_conv_test ${CMAKE_CURRENT_LIST_DIR}/conv_test.cpp)
tfjsi_add_suite(cpu_nn_matmul_test ${CMAKE_CURRENT_LIST_DIR}/matmul_test.cpp)
tfjsi_add_suite(cpu_nn_pool_resize_test ${CMAKE_CURRENT_LIST_DIR}/pool_resize_test.cpp)
tfjsi_add_suite(cpu_nn_layout_test ${CMAKE_CURRENT_LIST_DIR}/layout_test.cpp)
tfjsi_add_suite(cpu_nn_activation_test ${CMAKE_CURRENT_LIST_DIR}/activation_test.cpp)
