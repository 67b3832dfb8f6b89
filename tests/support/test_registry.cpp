// SPDX-License-Identifier: GPL-3.0-or-later
#include "support/test_registry.h"

#include <QtTest>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace rooftop::test {

namespace {

std::map<std::string, TestClassFactory>& registry() {
    static std::map<std::string, TestClassFactory> classes; // constructed on first use: no init-order issue
    return classes;
}

} // namespace

bool registerTestClass(const char* name, TestClassFactory factory) {
    if (!registry().emplace(name, factory).second) {
        std::fprintf(stderr, "test class %s registered twice\n", name);
        std::abort();
    }
    return true;
}

int runRegisteredTestClasses(int argc, char** argv) {
    std::vector<char*> arguments(argv, argv + argc);
    const char* only = nullptr;
    if (argc > 1 && registry().count(argv[1])) {
        only = argv[1];
        arguments.erase(arguments.begin() + 1);
    }
    int failures = 0;
    for (const auto& [name, factory] : registry()) {
        if (only && name != only) continue;
        const std::unique_ptr<QObject> testObject = factory();
        failures += QTest::qExec(testObject.get(), static_cast<int>(arguments.size()), arguments.data());
    }
    return std::min(failures, 127);
}

} // namespace rooftop::test
