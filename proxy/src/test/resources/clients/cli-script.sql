-- Run by MariaDbCliIT with `mariadb --batch --raw --force`, directly and through the proxy; the two
-- outputs (stdout and stderr) must be identical, so nothing here may depend on the connection.
SELECT 1 AS one, 'two' AS two, NULL AS nothing, 3.14 AS pi, -0.0e0 AS neg_zero, 18446744073709551615 AS max_u64;
CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, name VARCHAR(40) CHARACTER SET utf8mb4, price DECIMAL(8,2),
    at DATETIME(3), data VARBINARY(8), doc JSON);
INSERT INTO t VALUES
    (1, 'Grüße, 世界 😀', 12.50, '2024-02-29 13:45:59.123', x'00ff10', '{"a": [1, 2]}'),
    (2, NULL, NULL, NULL, NULL, NULL),
    (3, 'tab\there\nnewline', -0.01, '1970-01-01 00:00:00', '', 'null');
SELECT * FROM t ORDER BY id;
UPDATE t SET price = price * 2 WHERE id < 3;
SELECT ROW_COUNT() AS changed;
SELECT CAST('12abc' AS INT) AS truncated;
SHOW WARNINGS;
PREPARE s FROM 'SELECT id, name FROM t WHERE id > ? ORDER BY id';
SET @x = 1;
EXECUTE s USING @x;
DEALLOCATE PREPARE s;
CALL two_sets(2);
SELEC 1;
SELECT 'after the error' AS still_here;
DELIMITER //
BEGIN NOT ATOMIC
  DECLARE i INT DEFAULT 0;
  WHILE i < 3 DO SET i = i + 1; END WHILE;
  SELECT i AS looped;
END//
DELIMITER ;
SELECT @@version LIKE '11.%' AS v11, DATABASE(), CURRENT_USER();
-- 3000 rows; a recursive CTE alone stops at max_recursive_iterations (1000).
WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 1000)
SELECT n + 1000 * k AS n, MD5(n + 1000 * k), REPEAT('z', n % 50) FROM s, (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) ks
ORDER BY 1;
SELECT LENGTH(REPEAT('x', 1000000)) AS long_value, MD5(REPEAT('x', 1000000)) AS digest;
SELECT REPEAT('y', 70000) AS wide;
USE sluice_test
SELECT DATABASE() AS switched;
