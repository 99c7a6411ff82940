# Keras layers models lowered to the graph IR: hand-made configs (parsing, validation, each
# layer's lowering) and every real tfjs-layers bundle of the reference data, run on cpu against
# TF.js's golden outputs (one CTest per bundle).
tfjsi_add_suite(keras_lowering ${CMAKE_CURRENT_LIST_DIR}/lowering_test.cpp)

add_executable(keras_layers_model ${CMAKE_CURRENT_LIST_DIR}/layers_model_test.cpp)
target_link_libraries(keras_layers_model PRIVATE tfjsi_testsupport)
tfjsi_add_model_tests(keras.model keras_layers_model ${TFJSI_LAYERS_MODELS})

set_target_properties(keras_lowering keras_layers_model PROPERTIES AUTOMOC ON)
