# engine/runtime: the Engine (tensors, memory, scopes, flags, backends) and the Executor.
add_library(tfjsi_runtime_testutil STATIC ${CMAKE_CURRENT_LIST_DIR}/graph_builder.cpp)
target_link_libraries(tfjsi_runtime_testutil PUBLIC tfjsi_testsupport)

tfjsi_add_suite(runtime_engine ${CMAKE_CURRENT_LIST_DIR}/engine_test.cpp)
tfjsi_add_suite(runtime_executor ${CMAKE_CURRENT_LIST_DIR}/executor_test.cpp)
target_link_libraries(runtime_engine PRIVATE tfjsi_runtime_testutil)
target_link_libraries(runtime_executor PRIVATE tfjsi_runtime_testutil)
set_target_properties(runtime_engine runtime_executor PROPERTIES AUTOMOC ON)
