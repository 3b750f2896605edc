-- CreateTable
CREATE TABLE "search_documents" (
    "id" SERIAL NOT NULL,
    "run_id" TEXT NOT NULL,
    "root_run_id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "source" TEXT NOT NULL,
    "span_id" TEXT,
    "text" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "search_documents_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "run_facets" (
    "root_run_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "run_facets_pkey" PRIMARY KEY ("root_run_id","kind","value")
);

-- CreateTable
CREATE TABLE "saved_views" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "filters" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saved_views_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "search_documents_root_run_id_idx" ON "search_documents"("root_run_id");

-- CreateIndex
CREATE UNIQUE INDEX "search_documents_run_id_source_seq_key" ON "search_documents"("run_id", "source", "seq");

-- CreateIndex
CREATE INDEX "run_facets_kind_value_idx" ON "run_facets"("kind", "value");

-- CreateIndex
CREATE UNIQUE INDEX "saved_views_user_id_name_key" ON "saved_views"("user_id", "name");

-- Hand-written (schema.prisma cannot say it): the full-text index over search_documents.text, as a stored
-- column so a query reads each row's words instead of parsing its text again (a common word walks the
-- newest rows; bench/search). Every run of characters that are not letters or digits becomes a space first,
-- so the words are the ones SQLite's unicode61 tokenizer and lib/search's searchTerms see ("A-9921" is a and
-- 9921, not a and -9921); the 'simple' configuration then lowercases and does not stem.
ALTER TABLE "search_documents" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (to_tsvector('simple', regexp_replace("text", '[^[:alnum:]]+', ' ', 'g'))) STORED;
CREATE INDEX "search_documents_fts_idx" ON "search_documents" USING GIN ("search_vector");
