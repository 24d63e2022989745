CREATE TABLE `shop_licences` (
	`licence_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`terms` text DEFAULT '' NOT NULL,
	`duration_days` integer,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `shop_products` (
	`product_id` text PRIMARY KEY NOT NULL,
	`asset_id` text,
	`group_id` text,
	`title` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`search_key` text DEFAULT '' NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`creator` text NOT NULL,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shop_products_published_idx` ON `shop_products` (`published`,`ctime`);--> statement-breakpoint
CREATE INDEX `shop_products_group_idx` ON `shop_products` (`group_id`);--> statement-breakpoint
CREATE TABLE `shop_offers` (
	`offer_id` text PRIMARY KEY NOT NULL,
	`product_id` text NOT NULL,
	`licence_id` text NOT NULL,
	`variant` text NOT NULL,
	`price` integer NOT NULL,
	`currency` text NOT NULL,
	`position` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `shop_offers_product_idx` ON `shop_offers` (`product_id`,`position`);--> statement-breakpoint
CREATE INDEX `shop_offers_licence_idx` ON `shop_offers` (`licence_id`);--> statement-breakpoint
CREATE TABLE `shop_cart_items` (
	`item_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`product_id` text NOT NULL,
	`offer_id` text NOT NULL,
	`ctime` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `shop_cart_items_user_offer_idx` ON `shop_cart_items` (`user_id`,`offer_id`);--> statement-breakpoint
CREATE INDEX `shop_cart_items_offer_idx` ON `shop_cart_items` (`offer_id`);--> statement-breakpoint
CREATE TABLE `shop_orders` (
	`order_id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`email` text,
	`status` text NOT NULL,
	`total` integer NOT NULL,
	`currency` text NOT NULL,
	`provider` text NOT NULL,
	`provider_ref` text,
	`payment_url` text,
	`reason` text,
	`ctime` integer NOT NULL,
	`mtime` integer NOT NULL,
	`paid_at` integer,
	`delivered_at` integer
);
--> statement-breakpoint
CREATE INDEX `shop_orders_user_idx` ON `shop_orders` (`user_id`,`ctime`);--> statement-breakpoint
CREATE INDEX `shop_orders_status_idx` ON `shop_orders` (`status`,`ctime`);--> statement-breakpoint
CREATE INDEX `shop_orders_ref_idx` ON `shop_orders` (`provider_ref`);--> statement-breakpoint
CREATE TABLE `shop_order_items` (
	`item_id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`product_id` text NOT NULL,
	`offer_id` text NOT NULL,
	`asset_id` text,
	`group_id` text,
	`title` text NOT NULL,
	`licence_id` text NOT NULL,
	`licence_name` text NOT NULL,
	`licence_terms` text NOT NULL,
	`duration_days` integer,
	`variant` text NOT NULL,
	`price` integer NOT NULL,
	`currency` text NOT NULL,
	`deliveries` text
);
--> statement-breakpoint
CREATE INDEX `shop_order_items_order_idx` ON `shop_order_items` (`order_id`);--> statement-breakpoint
CREATE TABLE `shop_webhook_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`kind` text NOT NULL,
	`order_id` text,
	`ctime` integer NOT NULL
);
