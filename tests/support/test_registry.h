// SPDX-License-Identifier: GPL-3.0-or-later
// Several Qt Test classes in one executable: each class registers itself (ROOFTOP_TEST_CLASS in place of
// QTEST_MAIN) and the group's main (group_main.cpp) runs them all with QTest::qExec.
#pragma once

#include <QObject>
#include <QTest>
#include <memory>

#ifndef QVERIFY_THROWS_EXCEPTION // Qt 6.2 (Ubuntu 22.04, JetPack 6) has only the older macro
#define QVERIFY_THROWS_EXCEPTION(type, ...) QVERIFY_EXCEPTION_THROWN((__VA_ARGS__), type)
#endif

namespace rooftop::test {

/// Makes one instance of a registered test class.
using TestClassFactory = std::unique_ptr<QObject> (*)();

/// Registers a test class under its name; returns true (for a static initializer). A repeated name aborts.
bool registerTestClass(const char* name, TestClassFactory factory);

/// Runs the registered classes in name order, each with QTest::qExec and these arguments; when the first
/// argument names a class, only that class runs (with the remaining arguments). Returns the number of failed
/// test functions over all classes, at most 127 (an exit status).
int runRegisteredTestClasses(int argc, char** argv);

} // namespace rooftop::test

/// Registers `Class` (a QObject test class with a default constructor) with the group executable's main.
#define ROOFTOP_TEST_CLASS(Class)                                                                            \
    namespace {                                                                                              \
    const bool rooftopRegistered##Class = ::rooftop::test::registerTestClass(                                \
        #Class, []() -> std::unique_ptr<QObject> { return std::make_unique<Class>(); });                     \
    }
