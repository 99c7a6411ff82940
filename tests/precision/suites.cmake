# Precision: half-float rounding rules, the fp16 check on the three fp16 test models that
# tests/reference makes with tfjs-layers (one CTest each), and the backend comparison on corpus
# models, plainly and with one kernel perturbed on purpose. blazepose-lite is the deep one whose
# segmentation output amplifies any rounding unlike TF.js's (gl and xnnpack diverged there before).
tfjsi_add_suite(fp16_rounding_test ${CMAKE_CURRENT_LIST_DIR}/fp16_rounding_test.cpp)

add_executable(fp16_models_test ${CMAKE_CURRENT_LIST_DIR}/fp16_models_test.cpp)
target_link_libraries(fp16_models_test PRIVATE tfjsi_testsupport)
add_dependencies(fp16_models_test tfjsi)
tfjsi_add_model_tests(precision.fp16 fp16_models_test fp16_overflow fp16_underflow fp16_safe)

add_executable(compare_corpus_test ${CMAKE_CURRENT_LIST_DIR}/compare_corpus_test.cpp)
target_link_libraries(compare_corpus_test PRIVATE tfjsi_testsupport)
add_dependencies(compare_corpus_test tfjsi)
set(compare_models blazeface emotion iris handdetect blazepose-lite)
# The sanitizer pass is built by clang, which makes no FMA clones of the cpu kernels (clang 14
# miscalls a target_clones member function defined in another file): its cpu rounds every
# multiply-add twice where xnnpack fuses them, and blazepose-lite's segmentation moves past the
# tolerance (3.7e-3). A rounding question, not a memory one: the normal build checks it.
if(TFJSI_SANITIZE AND CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
  list(REMOVE_ITEM compare_models blazepose-lite)
endif()
tfjsi_add_model_tests(precision.compare compare_corpus_test ${compare_models})

tfjsi_add_suite(compare_perturbed_test ${CMAKE_CURRENT_LIST_DIR}/compare_perturbed_test.cpp)

# tfjsi reduce --until diverge against the same perturbed kernels (issue #23).
tfjsi_add_suite(reduce_perturbed_test ${CMAKE_CURRENT_LIST_DIR}/reduce_perturbed_test.cpp)

# fp16 that follows TF.js webgl (#24): gl fp16 and the emulation against TF.js webgl's own fp16
# error, recorded in webgl_fp16_errors.json by record_webgl_errors.py (one CTest per layers model).
add_executable(webgl_fp16_test ${CMAKE_CURRENT_LIST_DIR}/webgl_fp16_test.cpp)
target_link_libraries(webgl_fp16_test PRIVATE tfjsi_testsupport)
tfjsi_add_model_tests(precision.webgl_fp16 webgl_fp16_test activations embed_lstm fp16_overflow
                      fp16_safe fp16_underflow func_depthwise func_depthwise-q16 func_upsample
                      func_upsample-f16 merge_ops multi_io multi_io-mixed nested sample seq_cnn
                      seq_cnn-q8 seq_gru seq_reshape)

# TF.js webgl's staged Mean/Sum windows and Softmax steps (ops/webgl_stages.h), worked by hand.
tfjsi_add_suite(webgl_stages_test ${CMAKE_CURRENT_LIST_DIR}/webgl_stages_test.cpp)
