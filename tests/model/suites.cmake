# engine/model: loading TF.js bundles (model.json, weights manifest, shards, dequantization).
add_library(tfjsi_model_testutil STATIC ${CMAKE_CURRENT_LIST_DIR}/bundle_files.cpp)
target_link_libraries(tfjsi_model_testutil PUBLIC tfjsi_testsupport)

tfjsi_add_suite(model_corpus ${CMAKE_CURRENT_LIST_DIR}/corpus_bundle_test.cpp)
target_link_libraries(model_corpus PRIVATE tfjsi_model_testutil)
# The model list is fixed in corpus.cmake so that a vanished model fails instead of being skipped.
list(JOIN TFJSI_CORPUS_MODELS "," TFJSI_MODEL_TEST_NAMES)
target_compile_definitions(model_corpus PRIVATE TFJSI_CORPUS_MODEL_NAMES="${TFJSI_MODEL_TEST_NAMES}")

tfjsi_add_suite(model_synthetic ${CMAKE_CURRENT_LIST_DIR}/synthetic_bundle_test.cpp)
target_link_libraries(model_synthetic PRIVATE tfjsi_model_testutil)

tfjsi_add_suite(model_broken ${CMAKE_CURRENT_LIST_DIR}/broken_bundle_test.cpp)
target_link_libraries(model_broken PRIVATE tfjsi_model_testutil)
set_target_properties(model_corpus model_synthetic model_broken PROPERTIES AUTOMOC ON)

# The bounds of engine/model/limits.h, each just over and (where practical) just at the limit.
tfjsi_add_suite(model_limits ${CMAKE_CURRENT_LIST_DIR}/limits_test.cpp)
target_link_libraries(model_limits PRIVATE tfjsi_model_testutil)
set_target_properties(model_limits PROPERTIES AUTOMOC ON)

# A weight shard truncated, rewritten or removed after loading: runs still give the untouched
# model's outputs (shards are read at load, not mapped); one short at load is refused by name.
tfjsi_add_suite(model_shard_fault ${CMAKE_CURRENT_LIST_DIR}/shard_fault_test.cpp)
set_target_properties(model_shard_fault PROPERTIES AUTOMOC ON)

# Writing quantized bundles (tfjsi quantize, issue #23): other dtypes byte for byte, groups kept.
tfjsi_add_suite(model_bundle_writer ${CMAKE_CURRENT_LIST_DIR}/bundle_writer_test.cpp)
target_link_libraries(model_bundle_writer PRIVATE tfjsi_model_testutil)
set_target_properties(model_bundle_writer PROPERTIES AUTOMOC ON)
