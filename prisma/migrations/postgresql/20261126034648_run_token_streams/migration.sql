-- CreateTable
CREATE TABLE "run_token_streams" (
    "run_id" TEXT NOT NULL,
    "iteration" INTEGER NOT NULL,
    "attempt" INTEGER NOT NULL,
    "agent_name" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "done" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "run_token_streams_pkey" PRIMARY KEY ("run_id","iteration")
);

-- CreateIndex
CREATE INDEX "run_token_streams_updated_at_idx" ON "run_token_streams"("updated_at");
