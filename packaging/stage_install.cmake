# Run by cpack (CPACK_INSTALL_SCRIPTS) in packaging.deb's test: installs the already built tree
# into cpack's staging folder (DESTDIR) without cpack's "preinstall" step, which would build
# every target of the tree first.
set(CMAKE_INSTALL_PREFIX ${CPACK_PACKAGING_INSTALL_PREFIX})
set(CMAKE_INSTALL_DO_STRIP ON)
include(${TFJSI_BUILD_DIR}/cmake_install.cmake)
