# engine/backends/cpu tensor ops: elementwise, reductions, shape, gather and selection kernels,
# scatter/search/set/counting ops and Einsum.
tfjsi_add_suite(cpu_tensor_elementwise ${CMAKE_CURRENT_LIST_DIR}/elementwise_test.cpp)
tfjsi_add_suite(cpu_tensor_index_ops ${CMAKE_CURRENT_LIST_DIR}/index_ops_test.cpp)
tfjsi_add_suite(cpu_tensor_reduce_shape ${CMAKE_CURRENT_LIST_DIR}/reduce_shape_test.cpp)
tfjsi_add_suite(cpu_tensor_selection ${CMAKE_CURRENT_LIST_DIR}/selection_test.cpp)
set_target_properties(cpu_tensor_elementwise cpu_tensor_index_ops cpu_tensor_reduce_shape
                      cpu_tensor_selection PROPERTIES AUTOMOC ON)
# String and sparse kernels against TF.js's own op tests' expectations.
tfjsi_add_suite(cpu_tensor_text_sparse ${CMAKE_CURRENT_LIST_DIR}/text_sparse_test.cpp)
set_target_properties(cpu_tensor_text_sparse PROPERTIES AUTOMOC ON)
# Ragged kernels and BitwiseAnd against TF.js's own op tests' expectations, and where we follow TF.
tfjsi_add_suite(cpu_tensor_ragged ${CMAKE_CURRENT_LIST_DIR}/ragged_test.cpp)
set_target_properties(cpu_tensor_ragged PROPERTIES AUTOMOC ON)
# Complex numbers and the FFTs against the DFT's definition; complex64 refused by real-only kernels.
tfjsi_add_suite(cpu_tensor_spectral ${CMAKE_CURRENT_LIST_DIR}/spectral_test.cpp)
set_target_properties(cpu_tensor_spectral PROPERTIES AUTOMOC ON)
