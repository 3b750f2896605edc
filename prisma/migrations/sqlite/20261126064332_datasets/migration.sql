-- CreateTable
CREATE TABLE "datasets" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_by_id" TEXT,
    "latest_version" INTEGER NOT NULL DEFAULT 0,
    "item_count" INTEGER NOT NULL DEFAULT 0,
    "next_position" INTEGER NOT NULL DEFAULT 1,
    "archived_at" DATETIME,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "dataset_versions" (
    "dataset_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "item_count" INTEGER NOT NULL,
    "created_by_id" TEXT,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("dataset_id", "number")
);

-- CreateTable
CREATE TABLE "dataset_items" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "dataset_id" TEXT NOT NULL,
    "item_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "added_in" INTEGER NOT NULL,
    "removed_in" INTEGER,
    "data" TEXT NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "datasets_name_key" ON "datasets"("name");

-- CreateIndex
CREATE INDEX "dataset_items_dataset_id_position_idx" ON "dataset_items"("dataset_id", "position");

-- CreateIndex
CREATE INDEX "dataset_items_dataset_id_item_id_idx" ON "dataset_items"("dataset_id", "item_id");

-- CreateIndex
CREATE INDEX "dataset_items_dataset_id_removed_in_idx" ON "dataset_items"("dataset_id", "removed_in");
