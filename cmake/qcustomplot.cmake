# SPDX-License-Identifier: GPL-3.0-or-later
# QCustomPlot built for Qt 6, as the interface target rooftop::qcustomplot.
#
# Default: the distribution's shared library (Debian 12, Ubuntu 24.04: libqcustomplot-dev + libqcustomplot2.1-qt6),
# found through its CMake config QCustomPlotQt6.
#
# -DROOFTOP_FETCH_QCUSTOMPLOT=ON, for distributions without a Qt 6 build of QCustomPlot (Ubuntu 22.04, i.e.
# JetPack 6): downloads QCustomPlot's release source at configure time, checks its SHA-256, and builds
# qcustomplot.cpp as a static library linked into rooftop. Nothing of QCustomPlot is committed to this repository.
# ROOFTOP_QCUSTOMPLOT_SOURCE_ARCHIVE names an archive already on disk instead (offline builds, mirrors); its
# hash is checked too unless ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256 is set to another value or emptied.
# QCustomPlot is GPL-3.0-or-later, like Rooftop.
option(ROOFTOP_FETCH_QCUSTOMPLOT
  "Download QCustomPlot's release source at configure time and build it statically (no Qt 6 QCustomPlot here)"
  OFF)
set(ROOFTOP_QCUSTOMPLOT_SOURCE_URL "https://www.qcustomplot.com/release/2.1.1/QCustomPlot-source.tar.gz"
  CACHE STRING "QCustomPlot release source archive for ROOFTOP_FETCH_QCUSTOMPLOT")
# SHA-256 of QCustomPlot-source.tar.gz 2.1.1 (2022-11-06), as recorded independently by nixpkgs and xmake-repo.
set(ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256 "5e2d22dec779db8f01f357cbdb25e54fbcf971adaee75eae8d7ad2444487182f"
  CACHE STRING "Expected SHA-256 of the QCustomPlot source archive (empty: not checked)")
set(ROOFTOP_QCUSTOMPLOT_SOURCE_ARCHIVE "" CACHE FILEPATH
  "A QCustomPlot source archive on disk to use instead of downloading ROOFTOP_QCUSTOMPLOT_SOURCE_URL")

if(NOT ROOFTOP_FETCH_QCUSTOMPLOT)
  find_package(QCustomPlotQt6 QUIET)
  if(NOT QCustomPlotQt6_FOUND)
    message(FATAL_ERROR
      "QCustomPlot for Qt 6 (CMake package QCustomPlotQt6) was not found.\n"
      "On Debian 12 and Ubuntu 24.04 install it: apt-get install libqcustomplot-dev libqcustomplot2.1-qt6\n"
      "Where the distribution has no Qt 6 build of it (Ubuntu 22.04 / JetPack 6), configure with "
      "-DROOFTOP_FETCH_QCUSTOMPLOT=ON to download QCustomPlot's release source and build it with Rooftop "
      "(or set QCustomPlotQt6_DIR to a QCustomPlotQt6Config.cmake of your own).")
  endif()
  add_library(rooftop_qcustomplot INTERFACE)
  target_link_libraries(rooftop_qcustomplot INTERFACE QCustomPlotQt6::QCustomPlotQt6 Qt6::Widgets Qt6::PrintSupport)
  target_compile_definitions(rooftop_qcustomplot INTERFACE QCUSTOMPLOT_USE_LIBRARY)
  add_library(rooftop::qcustomplot ALIAS rooftop_qcustomplot)
  return()
endif()

# --- ROOFTOP_FETCH_QCUSTOMPLOT: release source, downloaded (or given), checked, extracted, built statically ---
set(_qcp_dir "${CMAKE_BINARY_DIR}/_deps/qcustomplot")
if(ROOFTOP_QCUSTOMPLOT_SOURCE_ARCHIVE)
  set(_qcp_archive "${ROOFTOP_QCUSTOMPLOT_SOURCE_ARCHIVE}")
  if(NOT EXISTS "${_qcp_archive}")
    message(FATAL_ERROR "ROOFTOP_QCUSTOMPLOT_SOURCE_ARCHIVE: ${_qcp_archive} does not exist")
  endif()
else()
  set(_qcp_archive "${_qcp_dir}/QCustomPlot-source.tar.gz")
endif()

set(_qcp_hash_ok TRUE)
if(EXISTS "${_qcp_archive}" AND ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256)
  file(SHA256 "${_qcp_archive}" _qcp_hash)
  if(NOT _qcp_hash STREQUAL ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256)
    set(_qcp_hash_ok FALSE)
  endif()
endif()

if(NOT ROOFTOP_QCUSTOMPLOT_SOURCE_ARCHIVE AND (NOT EXISTS "${_qcp_archive}" OR NOT _qcp_hash_ok))
  message(STATUS "Downloading QCustomPlot: ${ROOFTOP_QCUSTOMPLOT_SOURCE_URL}")
  file(DOWNLOAD "${ROOFTOP_QCUSTOMPLOT_SOURCE_URL}" "${_qcp_archive}.part" TLS_VERIFY ON STATUS _qcp_status)
  list(GET _qcp_status 0 _qcp_code)
  if(NOT _qcp_code EQUAL 0)
    list(GET _qcp_status 1 _qcp_message)
    file(REMOVE "${_qcp_archive}.part")
    message(FATAL_ERROR
      "Could not download QCustomPlot from ${ROOFTOP_QCUSTOMPLOT_SOURCE_URL}: ${_qcp_message}\n"
      "Download it yourself and pass -DROOFTOP_QCUSTOMPLOT_SOURCE_ARCHIVE=/path/to/QCustomPlot-source.tar.gz")
  endif()
  if(ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256)
    file(SHA256 "${_qcp_archive}.part" _qcp_hash)
    if(NOT _qcp_hash STREQUAL ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256)
      file(REMOVE "${_qcp_archive}.part")
      message(FATAL_ERROR "${ROOFTOP_QCUSTOMPLOT_SOURCE_URL}: downloaded file has SHA-256 ${_qcp_hash}, expected "
        "${ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256}")
    endif()
  endif()
  file(RENAME "${_qcp_archive}.part" "${_qcp_archive}")
  set(_qcp_hash_ok TRUE)
endif()
if(NOT _qcp_hash_ok)
  message(FATAL_ERROR "${_qcp_archive}: SHA-256 ${_qcp_hash}, expected ${ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256} "
    "(set ROOFTOP_QCUSTOMPLOT_SOURCE_SHA256 for another release)")
endif()

# QCustomPlot 2.1.0's header shows moc a fake "class QCP" with Q_GADGET in place of its namespace QCP; Qt 6's moc
# output (checked with 6.4) then names QCP as a type and fails to compile. Turn it into a real Q_NAMESPACE with
# Q_ENUM_NS/Q_FLAG_NS, as Debian's package does. A header without the fake class is left as it is.
function(_rooftop_qcustomplot_qt6_moc_fix header)
  file(READ "${header}" text)
  set(open_marker "#ifndef Q_MOC_RUN\nnamespace QCP {\n#else\nclass QCP {")
  string(FIND "${text}" "${open_marker}" begin)
  if(begin EQUAL -1)
    return()
  endif()
  string(SUBSTRING "${text}" ${begin} -1 rest)
  string(FIND "${rest}" "public:\n#endif\n" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "${header}: unexpected layout of the QCP namespace")
  endif()
  string(SUBSTRING "${rest}" 0 ${end} fake_class)
  string(REGEX MATCHALL "Q_(ENUMS|FLAGS)\\([A-Za-z]+\\)" declarations "${fake_class}")
  set(registrations "")
  foreach(declaration IN LISTS declarations)
    string(REGEX REPLACE "Q_ENUMS\\(([A-Za-z]+)\\)" "  Q_ENUM_NS(\\1)" declaration "${declaration}")
    string(REGEX REPLACE "Q_FLAGS\\(([A-Za-z]+)\\)" "  Q_FLAG_NS(\\1)" declaration "${declaration}")
    string(APPEND registrations "${declaration}\n")
  endforeach()
  string(LENGTH "public:\n#endif\n" marker_length)
  math(EXPR after "${begin} + ${end} + ${marker_length}")
  string(SUBSTRING "${text}" 0 ${begin} head)
  string(SUBSTRING "${text}" ${after} -1 tail)
  string(REGEX REPLACE "\nextern const QMetaObject staticMetaObject;[^\n]*" "" tail "${tail}")
  string(REGEX REPLACE "\nQ_DECLARE_METATYPE\\(QCP::[A-Za-z]+\\)" "" tail "${tail}")
  string(FIND "${tail}" "} // end of namespace QCP" close)
  if(close EQUAL -1)
    message(FATAL_ERROR "${header}: end of namespace QCP not found")
  endif()
  string(SUBSTRING "${tail}" 0 ${close} body)
  string(SUBSTRING "${tail}" ${close} -1 tail)
  file(WRITE "${header}" "${head}namespace QCP {\n  Q_NAMESPACE\n${body}${registrations}${tail}")
  message(STATUS "QCustomPlot: QCP made a Q_NAMESPACE for Qt 6's moc")
endfunction()

# Extract again only when the archive changed. The release archive holds qcustomplot-source/qcustomplot.{h,cpp}.
file(SHA256 "${_qcp_archive}" _qcp_archive_hash)
set(_qcp_stamp "${_qcp_dir}/extracted.sha256")
set(_qcp_source_dir "${_qcp_dir}/source")
set(_qcp_previous_hash "")
if(EXISTS "${_qcp_stamp}")
  file(READ "${_qcp_stamp}" _qcp_previous_hash)
endif()
if(NOT _qcp_previous_hash STREQUAL _qcp_archive_hash)
  file(REMOVE_RECURSE "${_qcp_dir}/extract" "${_qcp_source_dir}")
  file(ARCHIVE_EXTRACT INPUT "${_qcp_archive}" DESTINATION "${_qcp_dir}/extract")
  file(GLOB_RECURSE _qcp_header "${_qcp_dir}/extract/*/qcustomplot.h" "${_qcp_dir}/extract/qcustomplot.h")
  list(LENGTH _qcp_header _qcp_header_count)
  if(NOT _qcp_header_count EQUAL 1)
    message(FATAL_ERROR "${_qcp_archive}: expected exactly one qcustomplot.h, found ${_qcp_header_count}")
  endif()
  get_filename_component(_qcp_extracted_dir "${_qcp_header}" DIRECTORY)
  foreach(_qcp_file qcustomplot.h qcustomplot.cpp)
    if(NOT EXISTS "${_qcp_extracted_dir}/${_qcp_file}")
      message(FATAL_ERROR "${_qcp_archive}: ${_qcp_file} is missing")
    endif()
    file(COPY "${_qcp_extracted_dir}/${_qcp_file}" DESTINATION "${_qcp_source_dir}")
  endforeach()
  foreach(_qcp_file GPL.txt changelog.txt)
    if(EXISTS "${_qcp_extracted_dir}/${_qcp_file}")
      file(COPY "${_qcp_extracted_dir}/${_qcp_file}" DESTINATION "${_qcp_source_dir}")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${_qcp_dir}/extract")
  _rooftop_qcustomplot_qt6_moc_fix("${_qcp_source_dir}/qcustomplot.h")
  file(WRITE "${_qcp_stamp}" "${_qcp_archive_hash}")
endif()
message(STATUS "QCustomPlot: built from ${_qcp_archive} (ROOFTOP_FETCH_QCUSTOMPLOT)")

# Built like Wireshark's bundled copy: static, its own warnings off, its header included as a system header.
add_library(rooftop_qcustomplot STATIC "${_qcp_source_dir}/qcustomplot.cpp" "${_qcp_source_dir}/qcustomplot.h")
target_include_directories(rooftop_qcustomplot SYSTEM PUBLIC "${_qcp_source_dir}")
target_link_libraries(rooftop_qcustomplot PUBLIC Qt6::Widgets Qt6::PrintSupport)
target_compile_options(rooftop_qcustomplot PRIVATE -w)
set_target_properties(rooftop_qcustomplot PROPERTIES AUTOMOC ON POSITION_INDEPENDENT_CODE ON)
add_library(rooftop::qcustomplot ALIAS rooftop_qcustomplot)
set(ROOFTOP_QCUSTOMPLOT_BUNDLED TRUE) # read by packaging/ (copyright of the bundled copy)
