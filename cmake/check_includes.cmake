# SPDX-License-Identifier: GPL-3.0-or-later
# Build-time layering check: fails when a file of a layer includes a project header from a folder that is not in
# ALLOWED (the layer itself and the layers it links). Run as `cmake -DFILE_LIST=f -DLAYER=core/x -DALLOWED=a,b
# [-DSTAMP=file] -P check_includes.cmake`, FILE_LIST naming a file that holds the ';'-separated files to check. Only quoted includes with a folder part are checked: <...> includes and
# local "file.h" includes are not project layers.
if(NOT FILE_LIST OR NOT LAYER)
  message(FATAL_ERROR "check_includes.cmake needs FILE_LIST and LAYER")
endif()
string(REPLACE "," ";" allowed "${ALLOWED}")
file(READ "${FILE_LIST}" files)
set(violations "")
foreach(file ${files})
  file(STRINGS "${file}" lines REGEX "^[ \t]*#[ \t]*include[ \t]+\"[^\"]+/[^\"/]+\"")
  foreach(line ${lines})
    string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)/[^\"/]+\".*$" "\\1" folder "${line}")
    list(FIND allowed "${folder}" at)
    if(at EQUAL -1)
      get_filename_component(name "${file}" NAME)
      string(REGEX REPLACE "^[ \t]*#[ \t]*include[ \t]+\"([^\"]+)\".*$" "\\1" header "${line}")
      list(APPEND violations "${LAYER}/${name} includes ${header}")
    endif()
  endforeach()
endforeach()
if(violations)
  list(JOIN violations "\n  " text)
  string(REPLACE ";" ", " allowed_text "${allowed}")
  message(FATAL_ERROR "layering: ${LAYER} may include only ${allowed_text}; found a back-edge or undeclared edge:\n  ${text}\n"
                      "Declare the dependency in its CMakeLists.txt (if it keeps the layers acyclic) or move the code.")
endif()
if(STAMP)
  file(WRITE "${STAMP}" "ok\n")
endif()
