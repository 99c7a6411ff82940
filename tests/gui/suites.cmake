# GUI suites: the real MainWindow and graph canvas, driven with QTest. They need a display:
# scripts/test.sh runs ctest under xvfb-run (a shown QOpenGLWidget crashes the offscreen platform).
find_package(Qt6 6.4 REQUIRED COMPONENTS Widgets OpenGLWidgets)

tfjsi_add_suite(gui_main_window_test ${CMAKE_CURRENT_LIST_DIR}/main_window_test.cpp)
target_link_libraries(gui_main_window_test PRIVATE tfjsi_ui)

tfjsi_add_suite(gui_graph_scene_test ${CMAKE_CURRENT_LIST_DIR}/graph_scene_test.cpp)
target_link_libraries(gui_graph_scene_test PRIVATE tfjsi_viewers)

# The canvas coloured by backend and by a per-node value, on a real model; legend placement.
tfjsi_add_suite(gui_graph_colouring_test ${CMAKE_CURRENT_LIST_DIR}/graph_colouring_test.cpp)
target_link_libraries(gui_graph_colouring_test PRIVATE tfjsi_ui)

tfjsi_add_suite(gui_run_test ${CMAKE_CURRENT_LIST_DIR}/run_test.cpp)
target_link_libraries(gui_run_test PRIVATE tfjsi_ui)

# Switching to gl with empty caches: the Run dock counts the kernels compiled before the first
# result, and its result line tells compiling apart from the run (#19).
tfjsi_add_suite(gui_compile_progress_test ${CMAKE_CURRENT_LIST_DIR}/compile_progress_test.cpp)
target_link_libraries(gui_compile_progress_test PRIVATE tfjsi_ui)

# Frame and layout times of the canvas on facemesh-attention and a synthetic 20000-node graph.
tfjsi_add_suite(gui_graph_scale_test ${CMAKE_CURRENT_LIST_DIR}/graph_scale_test.cpp)
target_link_libraries(gui_graph_scale_test PRIVATE tfjsi_ui)
set_tests_properties(gui_graph_scale_test PROPERTIES TIMEOUT 900)

# Opening by drag and drop of a model folder or model.json, and the Open Recent menu.
tfjsi_add_suite(gui_open_paths_test ${CMAKE_CURRENT_LIST_DIR}/open_paths_test.cpp)
target_link_libraries(gui_open_paths_test PRIVATE tfjsi_ui)

# The Precision dock on the fp16 test models (TF.js names the culprit layer): check, links, jump,
# colouring, the fix; cancel on a corpus model.
tfjsi_add_suite(gui_precision_test ${CMAKE_CURRENT_LIST_DIR}/precision_test.cpp)
target_link_libraries(gui_precision_test PRIVATE tfjsi_ui)
set_tests_properties(gui_precision_test PROPERTIES TIMEOUT 900)

# The Memory, Profile and Environment panels on the sample: flat memory over 20 runs per backend,
# the profile table and chart, flags edited from the Environment panel.
tfjsi_add_suite(gui_panels_test ${CMAKE_CURRENT_LIST_DIR}/panels_test.cpp)
target_link_libraries(gui_panels_test PRIVATE tfjsi_ui)
set_tests_properties(gui_panels_test PROPERTIES TIMEOUT 600)

# A second model opened while a benchmark of the first runs (finite, then endless and cancelled):
# the run ends cleanly, the window shows the second model, and only its weights stay resident.
tfjsi_add_suite(gui_second_model_test ${CMAKE_CURRENT_LIST_DIR}/second_model_test.cpp)
target_link_libraries(gui_second_model_test PRIVATE tfjsi_ui)
set_tests_properties(gui_second_model_test PROPERTIES TIMEOUT 900)

# The issue's newcomer path on a corpus model: open, run on cpu, xnnpack and gl, fp16, memory
# flat across runs, the slowest node from the Profile panel, the fp16 check; a screenshot a step.
tfjsi_add_suite(gui_newcomer_test ${CMAKE_CURRENT_LIST_DIR}/newcomer_test.cpp)
target_link_libraries(gui_newcomer_test PRIVATE tfjsi_ui)
set_tests_properties(gui_newcomer_test PROPERTIES TIMEOUT 900)

# Issue 20's first hour: per-model panels reset on open, the memory verdict's threshold, node
# names elided in the middle, the colour choice, dialogs, title, About and Properties texts.
tfjsi_add_suite(gui_first_hour_test ${CMAKE_CURRENT_LIST_DIR}/first_hour_test.cpp)
target_link_libraries(gui_first_hour_test PRIVATE tfjsi_ui)
set_tests_properties(gui_first_hour_test PROPERTIES TIMEOUT 900)

# The graph exported as PNG (window and `tfjs-inspector --export-graph`): the whole graph, as the
# SVG, no toolbar; the command line's exit codes.
tfjsi_add_suite(gui_graph_export_test ${CMAKE_CURRENT_LIST_DIR}/graph_export_test.cpp)
target_link_libraries(gui_graph_export_test PRIVATE tfjsi_ui)
add_dependencies(gui_graph_export_test tfjs-inspector)
set_tests_properties(gui_graph_export_test PROPERTIES TIMEOUT 600
  ENVIRONMENT "${TFJSI_TEST_ENV};TFJSI_INSPECTOR_BIN=$<TARGET_FILE:tfjs-inspector>")

# Issue 20's readability items at 1280x800: labels at the opening zoom, groups as wide as their
# titles, shape labels apart, the legend folded and moved; panels that fit the screen; outputs as
# 2-D heatmaps, no RGB choice for masks, top-k for class scores only.
tfjsi_add_suite(gui_readable_test ${CMAKE_CURRENT_LIST_DIR}/readable_test.cpp)
target_link_libraries(gui_readable_test PRIVATE tfjsi_ui)
set_tests_properties(gui_readable_test PROPERTIES TIMEOUT 900)

# Issue 20's Compare panel: selfie on gl fp16 against cpu names the first node past the tolerance
# in run order (checked against the engine's compare run in the test), a click selects it, the
# graph is coloured by the error; another model clears it; Cancel; equal sides refused.
tfjsi_add_suite(gui_compare_test ${CMAKE_CURRENT_LIST_DIR}/compare_test.cpp)
target_link_libraries(gui_compare_test PRIVATE tfjsi_ui)
set_tests_properties(gui_compare_test PROPERTIES TIMEOUT 600)

# The Environment panel's op table (issue #26): every converter op with what each backend runs.
tfjsi_add_suite(gui_env_ops_test ${CMAKE_CURRENT_LIST_DIR}/env_ops_test.cpp)
target_link_libraries(gui_env_ops_test PRIVATE tfjsi_ui)

# Issue #23's "Reduce to a repro..." in the Precision and Compare docks: the reduced bundle loads,
# is smaller, is opened, and shows the overflow (or the divergence) at the same node when checked
# again; a folder that will not do is refused; Cancel mid-way leaves the folder as it was.
tfjsi_add_suite(gui_reduce_test ${CMAKE_CURRENT_LIST_DIR}/reduce_test.cpp)
target_link_libraries(gui_reduce_test PRIVATE tfjsi_ui)
set_tests_properties(gui_reduce_test PROPERTIES TIMEOUT 900)

# Issue #23's "Quantize..." in the Model dock: Advise selects the smallest bundle within the
# tolerance; Write uint8 matches the converter's shards and loads; Open It opens it.
tfjsi_add_suite(gui_quantize_test ${CMAKE_CURRENT_LIST_DIR}/quantize_test.cpp)
target_link_libraries(gui_quantize_test PRIVATE tfjsi_ui)
set_tests_properties(gui_quantize_test PROPERTIES TIMEOUT 600)
