# mcphost_add_plugin(NAME SOURCES... [LIBS libs...] [OUTPUT_DIR dir] [NO_INSTALL])
#
# Builds a plugin the way the ABI requires: hidden visibility, a version
# script that exports only `mcph_plugin_entry`, and -z defs so that an
# undefined symbol fails the link rather than the dlopen().
set(MCPHOST_PLUGIN_VERSION_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/plugin.map"
    CACHE INTERNAL "")

function(mcphost_add_plugin name)
  cmake_parse_arguments(P "NO_INSTALL" "OUTPUT_DIR" "LIBS" ${ARGN})
  add_library(${name} MODULE ${P_UNPARSED_ARGUMENTS})
  if(NOT P_OUTPUT_DIR)
    set(P_OUTPUT_DIR "${MCPHOST_PLUGIN_BUILD_DIR}")
  endif()
  set_target_properties(${name} PROPERTIES
    PREFIX ""
    C_VISIBILITY_PRESET hidden
    CXX_VISIBILITY_PRESET hidden
    LIBRARY_OUTPUT_DIRECTORY "${P_OUTPUT_DIR}")
  target_link_libraries(${name} PRIVATE mcphost_sdk ${P_LIBS})
  target_link_options(${name} PRIVATE
    "-Wl,--version-script=${MCPHOST_PLUGIN_VERSION_SCRIPT}"
    "-Wl,-z,defs")
  if(NOT P_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION "${MCPHOST_PLUGIN_SUBDIR}")
  endif()
endfunction()
