# engine/runtime: the Engine (tensors, memory, scopes, flags, backends) and the Executor.
add_library(tfjsi_runtime_testutil STATIC ${CMAKE_CURRENT_LIST_DIR}/graph_builder.cpp)
target_link_libraries(tfjsi_runtime_testutil PUBLIC tfjsi_testsupport)

tfjsi_add_suite(runtime_engine ${CMAKE_CURRENT_LIST_DIR}/engine_test.cpp)
tfjsi_add_suite(runtime_executor ${CMAKE_CURRENT_LIST_DIR}/executor_test.cpp)
target_link_libraries(runtime_engine PRIVATE tfjsi_runtime_testutil)
target_link_libraries(runtime_executor PRIVATE tfjsi_runtime_testutil)
set_target_properties(runtime_engine runtime_executor PROPERTIES AUTOMOC ON)
# Hash tables as the model's resources: the initializer, lifetime across runs and executors.
tfjsi_add_suite(runtime_hash_table ${CMAKE_CURRENT_LIST_DIR}/hash_table_test.cpp)
target_link_libraries(runtime_hash_table PRIVATE tfjsi_runtime_testutil)
set_target_properties(runtime_hash_table PROPERTIES AUTOMOC ON)

# Every corpus model end to end on cpu, one CTest each (runtime_run.MODEL; under the sanitizers
# the models of TFJSI_RUN_MODELS, see corpus.cmake).
add_executable(runtime_corpus_run ${CMAKE_CURRENT_LIST_DIR}/corpus_run_test.cpp)
target_link_libraries(runtime_corpus_run PRIVATE tfjsi_testsupport)
set_target_properties(runtime_corpus_run PROPERTIES AUTOMOC ON)
tfjsi_add_model_tests(runtime_run runtime_corpus_run ${TFJSI_RUN_MODELS})

tfjsi_add_suite(runtime_buffer_pool ${CMAKE_CURRENT_LIST_DIR}/buffer_pool_test.cpp)
set_target_properties(runtime_buffer_pool PROPERTIES AUTOMOC ON)

# Buffer::allocate when an allocation after the bytes fails (issue #25): replaces the global
# operator new, so it is an executable of its own.
tfjsi_add_suite(runtime_buffer_alloc_failure ${CMAKE_CURRENT_LIST_DIR}/buffer_alloc_failure_test.cpp)
set_target_properties(runtime_buffer_alloc_failure PROPERTIES AUTOMOC ON)
