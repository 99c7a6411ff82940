# cmake -DBUILD_DIR=... -DWORK_DIR=... -DAPP_ID=... -P check_deb.cmake
# Runs cpack -G DEB for the build in BUILD_DIR into WORK_DIR (the programs must be built: the
# package is made from what is there, nothing is rebuilt) and checks its file list and Depends.
file(REMOVE_RECURSE ${WORK_DIR})
file(MAKE_DIRECTORY ${WORK_DIR})
# Staged by stage_install.cmake rather than by cpack's own install step, which would build
# every target of the tree first (a test must not run a build).
execute_process(
  COMMAND cpack -G DEB -B ${WORK_DIR} --config ${BUILD_DIR}/CPackConfig.cmake
          -D CPACK_INSTALL_CMAKE_PROJECTS= -D CPACK_INSTALL_SCRIPTS=${CMAKE_CURRENT_LIST_DIR}/stage_install.cmake
          -D TFJSI_BUILD_DIR=${BUILD_DIR}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "cpack failed (${rc}):\n${out}\n${err}")
endif()
file(GLOB debs ${WORK_DIR}/*.deb)
list(LENGTH debs n)
if(NOT n EQUAL 1)
  message(FATAL_ERROR "expected one .deb in ${WORK_DIR}, found: ${debs}\n${out}")
endif()
execute_process(COMMAND dpkg-deb -c ${debs} RESULT_VARIABLE rc OUTPUT_VARIABLE contents)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "dpkg-deb -c ${debs} failed")
endif()
foreach(path
    ./usr/bin/tfjs-inspector
    ./usr/bin/tfjsi
    ./usr/share/applications/${APP_ID}.desktop
    ./usr/share/metainfo/${APP_ID}.metainfo.xml
    ./usr/share/icons/hicolor/scalable/apps/tfjs-inspector.svg
    ./usr/share/icons/hicolor/64x64/apps/tfjs-inspector.png)
  string(FIND "${contents}" " ${path}\n" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${debs} lacks ${path}; it holds:\n${contents}")
  endif()
endforeach()
# Nothing from the build tree (static libraries, tests) may leak into the package.
if(contents MATCHES "\\.a\n|/tests/|_test\n")
  message(FATAL_ERROR "${debs} holds build leftovers:\n${contents}")
endif()
execute_process(COMMAND dpkg-deb -f ${debs} Package Depends OUTPUT_VARIABLE fields)
if(NOT fields MATCHES "Package: tfjs-inspector" OR NOT fields MATCHES "libqt6widgets6"
   OR NOT fields MATCHES "qt6-qpa-plugins")
  message(FATAL_ERROR "unexpected control fields:\n${fields}")
endif()
message(STATUS "${debs}:\n${contents}${fields}")
