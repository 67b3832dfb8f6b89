// SPDX-License-Identifier: GPL-3.0-or-later
// rooftop tune as a process: bad input, the JSON fields, the runs file.
#include "support/test_registry.h"

#include <QTest>

class TestTuneCli : public QObject {
    Q_OBJECT
private slots:
    void placeholder() {}
};

ROOFTOP_TEST_CLASS(TestTuneCli)
#include "test_tune_cli.moc"
