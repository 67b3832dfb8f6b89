// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/board_catalog.h"

#include "core/device/catalog.h"
#include "core/microbench/bench_session.h"
#include "core/platform/detected_catalog.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QMetaObject>
#include <QPointer>
#include <QSignalBlocker>
#include <algorithm>

namespace rooftop::gui {

namespace {

BoardCatalogContents loadContents() {
    BoardCatalogContents contents;
    try {
        contents.boards =
            std::make_shared<const std::vector<DeviceSpec>>(loadCatalogWithDetected(defaultCatalogFolder()));
    } catch (const std::exception& error) {
        contents.error = QString::fromUtf8(error.what());
    }
    std::string whyNot;
    contents.canMeasure = benchAvailable(&whyNot);
    contents.whyCannotMeasure = QString::fromStdString(whyNot);
    return contents;
}

} // namespace

BoardCatalog& BoardCatalog::instance() {
    static QPointer<BoardCatalog> catalog;
    if (!catalog) catalog = new BoardCatalog(QCoreApplication::instance());
    return *catalog;
}

BoardCatalog::BoardCatalog(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);
    pool_.start([this] {
        BoardCatalogContents contents = loadContents();
        QMetaObject::invokeMethod(
            this,
            [this, contents = std::move(contents)]() mutable {
                contents_ = std::move(contents);
                loaded_ = true;
                emit loaded();
            },
            Qt::QueuedConnection);
    });
}

BoardCatalog::~BoardCatalog() {
    pool_.waitForDone();
}

void BoardCatalog::whenLoaded(QObject* context, std::function<void(const BoardCatalogContents&)> ready) {
    if (loaded_) {
        ready(contents_);
        return;
    }
    auto connection = std::make_shared<QMetaObject::Connection>();
    *connection = connect(this, &BoardCatalog::loaded, context, [this, connection, ready = std::move(ready)] {
        disconnect(*connection);
        ready(contents_);
    });
}

bool fillBoardCombo(QComboBox* combo, const std::vector<DeviceSpec>& boards, const QString& keepId) {
    const QSignalBlocker block(combo);
    combo->clear();
    for (const DeviceSpec& board : boards) {
        combo->addItem(QString::fromStdString(board.name), QString::fromStdString(board.id));
        combo->setItemData(combo->count() - 1, QString::fromStdString(board.id), Qt::ToolTipRole);
    }
    const int index = combo->findData(keepId);
    combo->setCurrentIndex(std::max(0, index));
    return index >= 0;
}

} // namespace rooftop::gui
