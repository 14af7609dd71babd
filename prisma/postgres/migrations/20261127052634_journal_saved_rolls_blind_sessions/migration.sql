-- AlterTable
ALTER TABLE "Operator" ADD COLUMN     "avatarUrl" TEXT;

-- AlterTable
ALTER TABLE "Roll" ADD COLUMN     "blind" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "d100" INTEGER,
ADD COLUMN     "odds" DOUBLE PRECISION,
ADD COLUMN     "revealedAt" TIMESTAMP(3),
ADD COLUMN     "seedIndex" INTEGER,
ADD COLUMN     "invocation" TEXT,
ADD COLUMN     "sessionId" INTEGER;

-- CreateTable
CREATE TABLE "SavedRoll" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "operatorId" INTEGER,
    "scope" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "roll" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SavedRoll_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChannelWebhook" (
    "channelId" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ChannelWebhook_pkey" PRIMARY KEY ("channelId")
);

-- CreateTable
CREATE TABLE "JournalEntry" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "userId" TEXT,
    "kind" TEXT NOT NULL,
    "details" TEXT NOT NULL,
    "rollId" TEXT,
    "secret" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JournalEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PlaySession" (
    "id" SERIAL NOT NULL,
    "guildId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "day" TEXT,
    "title" TEXT NOT NULL DEFAULT '',
    "secret" TEXT NOT NULL,
    "commitment" TEXT NOT NULL,
    "openKey" TEXT,
    "channelId" TEXT,
    "openedBy" TEXT,
    "openedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "closedAt" TIMESTAMP(3),

    CONSTRAINT "PlaySession_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SavedRoll_guildId_scope_nameKey_key" ON "SavedRoll"("guildId", "scope", "nameKey");

-- CreateIndex
CREATE INDEX "ChannelWebhook_guildId_idx" ON "ChannelWebhook"("guildId");

-- CreateIndex
CREATE INDEX "JournalEntry_guildId_createdAt_idx" ON "JournalEntry"("guildId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "PlaySession_openKey_key" ON "PlaySession"("openKey");

-- CreateIndex
CREATE INDEX "PlaySession_guildId_openedAt_idx" ON "PlaySession"("guildId", "openedAt");

-- CreateIndex
CREATE INDEX "Roll_sessionId_seedIndex_idx" ON "Roll"("sessionId", "seedIndex");

-- AddForeignKey
ALTER TABLE "SavedRoll" ADD CONSTRAINT "SavedRoll_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator"("id") ON DELETE CASCADE ON UPDATE CASCADE;

