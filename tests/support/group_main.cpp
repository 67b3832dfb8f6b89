// SPDX-License-Identifier: GPL-3.0-or-later
// The main of a grouped test executable: the application object QTEST_MAIN would make (QApplication where Qt
// Widgets is linked, else QCoreApplication), then every class registered with ROOFTOP_TEST_CLASS.
#include "support/test_registry.h"

#ifdef QT_WIDGETS_LIB
#include <QApplication>
using TestApplication = QApplication;
#else
#include <QCoreApplication>
using TestApplication = QCoreApplication;
#endif

int main(int argc, char** argv) {
    TestApplication app(argc, argv);
    app.setAttribute(Qt::AA_Use96Dpi, true);
    return rooftop::test::runRegisteredTestClasses(argc, argv);
}
