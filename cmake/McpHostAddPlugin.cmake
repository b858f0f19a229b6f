# mcphost_add_plugin(NAME [SOURCES] source... [LIBS lib...]
#                    [OUTPUT_DIR dir] [INSTALL_DIR dir] [NO_INSTALL])
#
# Builds NAME.so, a plugin the way the ABI wants it: hidden visibility, a
# version script that exports only `mcph_plugin_entry`, and -z defs so
# that an undefined symbol fails the link rather than the dlopen(). Those
# three come from the target McpHostSDK::plugin, which it links with the
# LIBS given.
#
# The same function builds mcphost's own plugins (cmake/McphostPlugin.cmake
# sets the defaults below) and third parties' (installed beside
# McpHostSDKConfig.cmake):
#   OUTPUT_DIR   where NAME.so is built; default
#                MCPHOST_PLUGIN_DEFAULT_OUTPUT_DIR, else CMake's own;
#   INSTALL_DIR  where `cmake --install` puts it; default
#                MCPHOST_PLUGIN_DEFAULT_INSTALL_DIR, else it is not
#                installed (the installed SDK names the host's built-in
#                directory MCPHOST_SDK_PLUGIN_DIR);
#   NO_INSTALL   never installed.
function(mcphost_add_plugin name)
  cmake_parse_arguments(P "NO_INSTALL" "OUTPUT_DIR;INSTALL_DIR"
                        "SOURCES;LIBS" ${ARGN})
  add_library(${name} MODULE ${P_SOURCES} ${P_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES PREFIX "") # NAME.so
  target_link_libraries(${name} PRIVATE McpHostSDK::plugin ${P_LIBS})
  if(NOT P_OUTPUT_DIR)
    set(P_OUTPUT_DIR "${MCPHOST_PLUGIN_DEFAULT_OUTPUT_DIR}")
  endif()
  if(P_OUTPUT_DIR)
    set_target_properties(${name} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY "${P_OUTPUT_DIR}")
  endif()
  if(NOT P_INSTALL_DIR)
    set(P_INSTALL_DIR "${MCPHOST_PLUGIN_DEFAULT_INSTALL_DIR}")
  endif()
  if(P_INSTALL_DIR AND NOT P_NO_INSTALL)
    install(TARGETS ${name} LIBRARY DESTINATION "${P_INSTALL_DIR}")
  endif()
endfunction()
