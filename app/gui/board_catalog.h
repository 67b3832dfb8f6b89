// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/device/device_spec.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <functional>
#include <memory>
#include <vector>

class QComboBox;

namespace rooftop::gui {

/// What the start-up probe found: the boards and whether this machine can measure one.
struct BoardCatalogContents {
    std::shared_ptr<const std::vector<DeviceSpec>> boards =
        std::make_shared<const std::vector<DeviceSpec>>(); ///< catalog boards, then detected GPUs
    QString error;            ///< why the catalog could not be read; empty when it was
    bool canMeasure = false;  ///< benchAvailable()
    QString whyCannotMeasure; ///< its one-line reason when not
};

/// The board catalog and the CUDA probes, read once per process on a worker thread and shared by every
/// window, so that neither start-up nor a dropped file waits for the driver on the GUI thread.
class BoardCatalog : public QObject {
    Q_OBJECT
public:
    /// The process's catalog (a child of the application); the first call starts loading it.
    static BoardCatalog& instance();
    ~BoardCatalog() override;

    /// Calls `ready` on the GUI thread once the catalog is loaded: at once when it already is, else when
    /// loading ends (never when `context` is gone by then).
    void whenLoaded(QObject* context, std::function<void(const BoardCatalogContents&)> ready);
    /// True once the worker has finished.
    bool isLoaded() const { return loaded_; }
    /// The loaded contents; empty boards until isLoaded().
    const BoardCatalogContents& contents() const { return contents_; }

signals:
    /// Loading ended (the contents may carry an error).
    void loaded();

private:
    explicit BoardCatalog(QObject* parent);

    QThreadPool pool_;
    BoardCatalogContents contents_;
    bool loaded_ = false;
};

/// Lists `boards` in a combo (name shown, id as data and tooltip) and selects `keepId` when listed, else the
/// first; true when `keepId` was listed. Emits no signal.
bool fillBoardCombo(QComboBox* combo, const std::vector<DeviceSpec>& boards, const QString& keepId);

} // namespace rooftop::gui
