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
