-- CreateTable
CREATE TABLE "search_documents" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "run_id" TEXT NOT NULL,
    "root_run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "span_id" TEXT,
    "text" TEXT NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "run_facets" (
    "root_run_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    PRIMARY KEY ("root_run_id", "kind", "value")
);

-- CreateTable
CREATE TABLE "saved_views" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "filters" TEXT NOT NULL,
    "created_at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "search_documents_root_run_id_idx" ON "search_documents"("root_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "search_documents_run_id_source_seq_key" ON "search_documents"("run_id", "source", "seq");

-- CreateIndex
CREATE INDEX "run_facets_kind_value_idx" ON "run_facets"("kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_user_id_name_key" ON "saved_views"("user_id", "name");

-- Hand-written (schema.prisma cannot say it): the full-text index over search_documents.text.
-- unicode61 folds case and splits on anything not a letter or digit, so "Order #4417" has the
-- tokens order and 4417. External content: the text is stored once, in search_documents.
CREATE VIRTUAL TABLE "search_fts" USING fts5("text", content='search_documents', content_rowid='id', tokenize='unicode61 remove_diacritics 2');

CREATE TRIGGER "search_documents_fts_insert" AFTER INSERT ON "search_documents" BEGIN
  INSERT INTO "search_fts"(rowid, "text") VALUES (new."id", new."text");
END;

CREATE TRIGGER "search_documents_fts_delete" AFTER DELETE ON "search_documents" BEGIN
  INSERT INTO "search_fts"("search_fts", rowid, "text") VALUES ('delete', old."id", old."text");
END;
