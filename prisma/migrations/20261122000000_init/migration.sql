-- CreateTable
CREATE TABLE "Server" (
    "guildId" TEXT NOT NULL PRIMARY KEY,
    "dispatcherRoleId" TEXT,
    "contestTimeoutMinutes" INTEGER NOT NULL DEFAULT 15,
    "contestAddsOwnSkill" BOOLEAN NOT NULL DEFAULT false,
    "defaultSystem" TEXT NOT NULL DEFAULT 'tactalk',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Operator" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "guildId" TEXT NOT NULL,
    "ownerId" TEXT,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "system" TEXT NOT NULL DEFAULT 'tactalk',
    "active" BOOLEAN NOT NULL DEFAULT false,
    "notes" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Skill" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "operatorId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "level" INTEGER NOT NULL,
    CONSTRAINT "Skill_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Archetype" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "operatorId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "modifier" INTEGER NOT NULL,
    CONSTRAINT "Archetype_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Condition" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "operatorId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,
    "modifier" INTEGER NOT NULL,
    "skillKeys" TEXT,
    "expiresAt" DATETIME,
    CONSTRAINT "Condition_operatorId_fkey" FOREIGN KEY ("operatorId") REFERENCES "Operator" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Roll" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "system" TEXT NOT NULL DEFAULT 'tactalk',
    "inputs" TEXT NOT NULL,
    "seed" TEXT NOT NULL,
    "dice" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "total" INTEGER,
    "challengeLevel" INTEGER,
    "success" BOOLEAN,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "Operator_guildId_ownerId_idx" ON "Operator"("guildId", "ownerId");

-- CreateIndex
CREATE UNIQUE INDEX "Operator_guildId_ownerId_nameKey_key" ON "Operator"("guildId", "ownerId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Skill_operatorId_nameKey_key" ON "Skill"("operatorId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Archetype_operatorId_nameKey_key" ON "Archetype"("operatorId", "nameKey");

-- CreateIndex
CREATE UNIQUE INDEX "Condition_operatorId_nameKey_key" ON "Condition"("operatorId", "nameKey");

-- CreateIndex
CREATE INDEX "Roll_guildId_createdAt_idx" ON "Roll"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "Roll_createdAt_idx" ON "Roll"("createdAt");

