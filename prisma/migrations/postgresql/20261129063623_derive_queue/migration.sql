-- CreateTable
CREATE TABLE "ledger_derive_queue" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "rows" TEXT NOT NULL,

    CONSTRAINT "ledger_derive_queue_pkey" PRIMARY KEY ("id")
);
