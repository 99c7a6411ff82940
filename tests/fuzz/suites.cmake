# tests/fuzz: the inputs that once crashed a fuzz target (regressions/TARGET/) and the hand-written
# hostile seeds (seeds/TARGET/), replayed through the same target code by the normal build. The
# fuzzers themselves build with clang from tests/fuzz/CMakeLists.txt.
tfjsi_add_suite(fuzz_regressions
  ${CMAKE_CURRENT_LIST_DIR}/regression_test.cpp
  ${CMAKE_CURRENT_LIST_DIR}/memory_bundle.cpp
  ${CMAKE_CURRENT_LIST_DIR}/model_json_target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/bundle_target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/graph_targets.cpp
  ${CMAKE_CURRENT_LIST_DIR}/npy_target.cpp
  ${CMAKE_CURRENT_LIST_DIR}/find_target.cpp)
target_include_directories(fuzz_regressions PRIVATE ${CMAKE_CURRENT_LIST_DIR})
