# gl backend suites. They need a GL 4.3 driver (Mesa llvmpipe on CI) and use the headless EGL path
# even when run under xvfb-run.
tfjsi_add_suite(gl_context_test gl/gl_context_test.cpp)
tfjsi_add_suite(gl_kernels_test gl/gl_kernels_test.cpp)
tfjsi_add_suite(gl_program_cache_test gl/gl_program_cache_test.cpp)
